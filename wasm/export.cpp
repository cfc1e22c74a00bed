// The WebAssembly module's one export: `rainet_call(request)` answers as rainet::wasm::call does.
// The answer stays valid until the next call (the module runs in one worker, one call at a time).
#include <emscripten/emscripten.h>

#include <string>

#include "api.h"

extern "C" EMSCRIPTEN_KEEPALIVE const char* rainet_call(const char* request) {
    static std::string answer;
    answer = rainet::wasm::call(request);
    return answer.c_str();
}
