// See TargetQueries.h: the target_* queries are intrinsics until lowering
// (lower/LowerTargetQueries.cpp) replaces them with their answer.
#include "Halide/TargetQueries.h"

#include "Halide/IR.h"
#include "Halide/IROperator.h"

namespace Halide {

namespace {

Expr query(Type t, const char *name, const std::vector<Expr> &args) {
    return Internal::Call::make(t, name, args, Internal::Call::Intrinsic);
}

} // namespace

Expr target_arch_is(Target::Arch arch) {
    return query(Bool(), "target_arch_is", {Expr((int)arch)});
}

Expr target_bits() {
    return query(Int(32), "target_bits", {});
}

Expr target_os_is(Target::OS os) {
    return query(Bool(), "target_os_is", {Expr((int)os)});
}

Expr target_has_feature(Target::Feature feature) {
    return query(Bool(), "target_has_feature", {Expr((int)feature)});
}

Expr target_natural_vector_size(Type t) {
    return query(Int(32), "target_natural_vector_size", {Internal::make_zero(t.element_of())});
}

} // namespace Halide
