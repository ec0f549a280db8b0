// Questions about the target a pipeline is compiled for, asked inside the
// pipeline: each is an Expr that lowering replaces by the answer for the
// compile target (a constant), so a definition can choose between
// formulations per target (select(target_arch_is(Target::ARM), a, b)).
#ifndef HALIDE_TARGET_QUERIES_H
#define HALIDE_TARGET_QUERIES_H

#include "Halide/Expr.h"
#include "Halide/Target.h"

namespace Halide {

// Bool: the compile target's architecture is `arch`.
Expr target_arch_is(Target::Arch arch);
// Int(32): the compile target's word size in bits (32 or 64).
Expr target_bits();
// Bool: the compile target's operating system is `os`.
Expr target_os_is(Target::OS os);
// Bool: the compile target has `feature`.
Expr target_has_feature(Target::Feature feature);
// Int(32): Target::natural_vector_size(t) of the compile target.
Expr target_natural_vector_size(Type t);
template <typename T> Expr target_natural_vector_size() {
    return target_natural_vector_size(type_of<T>());
}

// They are intrinsics (Call::Intrinsic) until lowering: target_arch_is(int
// arch), target_bits(), target_os_is(int os), target_has_feature(int
// feature), target_natural_vector_size(a zero of the type asked about).

} // namespace Halide

#endif
