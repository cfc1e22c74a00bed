// Prints web/src/protocol.gen.ts: the TypeScript types of the server messages, from the field
// tables of src/protocol; with a path, writes them there instead (scripts/gen-protocol-ts.sh,
// the gen-protocol-ts target). protocol_tests fails while the checked-in file differs.
#include <fstream>
#include <iostream>

#include "protocol/typescript.h"

int main(int argc, char** argv) {
    const std::string text = rainet::protocol::typescriptTypes();
    if (argc < 2) {
        std::cout << text;
        return 0;
    }
    std::ofstream out(argv[1], std::ios::binary);
    out << text;
    if (!out) {
        std::cerr << "cannot write " << argv[1] << "\n";
        return 1;
    }
    return 0;
}
