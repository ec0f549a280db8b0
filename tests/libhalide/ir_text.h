// IR as text, for tests that compare a statement before and after a pass.
#ifndef HALIDE_TESTS_IR_TEXT_H
#define HALIDE_TESTS_IR_TEXT_H

#include <sstream>
#include <string>

#include "Halide/IRPrinter.h"

inline std::string printed(const Halide::Internal::Stmt &s) {
    std::ostringstream out;
    out << s;
    return out.str();
}

// How many times `what` occurs in `text` (overlaps counted).
inline int count(const std::string &text, const std::string &what) {
    int n = 0;
    for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) {
        n++;
    }
    return n;
}

#endif
