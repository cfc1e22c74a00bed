// `rainet_api`: the WebAssembly module's calls, compiled natively. Reads one request a line on
// stdin and writes its answer a line on stdout: the reference the cross-check compares the
// WebAssembly build with (web/test/unit/engine.test.ts). A record's newlines are written `\n`.
#include <iostream>
#include <string>

#include "api.h"

int main() {
    std::string line;
    while (std::getline(std::cin, line)) {
        std::string request;
        request.reserve(line.size());
        for (std::size_t i = 0; i < line.size(); ++i) {
            if (line[i] == '\\' && i + 1 < line.size() && line[i + 1] == 'n') {
                request += '\n';
                ++i;
            } else {
                request += line[i];
            }
        }
        std::cout << rainet::wasm::call(request) << '\n' << std::flush;
    }
    return 0;
}
