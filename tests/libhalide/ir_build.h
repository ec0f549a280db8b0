// Shorthands for building IR by hand in the lowering-pass tests.
#ifndef HALIDE_TESTS_IR_BUILD_H
#define HALIDE_TESTS_IR_BUILD_H

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "Halide/IR.h"
#include "lower/Passes.h"

// A variable of the given type (Int(32) unless said).
inline Halide::Expr var(const std::string &name, Halide::Type t = Halide::Int(32)) {
    return Halide::Internal::Variable::make(t, name);
}

// The Int(32) constant v.
inline Halide::Expr i32(int64_t v) {
    return Halide::Internal::IntImm::make(Halide::Int(32), v);
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

// An Environment of Funcs f(x) = 0 computed at root, by name: enough for
// the passes that read a Func's name, placement and flags.
inline Halide::Internal::Environment root_funcs(const std::vector<std::string> &names) {
    Halide::Internal::Environment env;
    for (const std::string &name : names) {
        auto f = std::make_shared<Halide::Internal::FunctionContents>();
        f->name = name;
        f->args = {"x"};
        f->values = {Halide::Expr(0)};
        f->compute = Halide::Internal::ComputeLevel::Root;
        env[name] = f;
    }
    return env;
}

#endif
