// Shorthands for building IR by hand in the lowering-pass tests.
#ifndef HALIDE_TESTS_IR_BUILD_H
#define HALIDE_TESTS_IR_BUILD_H

#include <string>

#include "Halide/IR.h"

// A variable of the given type (Int(32) unless said).
inline Halide::Expr var(const std::string &name, Halide::Type t = Halide::Int(32)) {
    return Halide::Internal::Variable::make(t, name);
}

// The n consecutive Int(32) values x, x + 1, ..., as one vector.
inline Halide::Expr lanes_of(const std::string &x, int n) {
    using namespace Halide::Internal;
    return Ramp::make(var(x), IntImm::make(Halide::Int(32), 1), n);
}

// The Int(32) constant v in each of n lanes.
inline Halide::Expr bcast(int v, int n) {
    using namespace Halide::Internal;
    return Broadcast::make(IntImm::make(Halide::Int(32), v), n);
}

#endif
