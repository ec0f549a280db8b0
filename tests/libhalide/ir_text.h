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

#endif
