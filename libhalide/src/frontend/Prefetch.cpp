// Func::prefetch and Stage::prefetch: recorded in the schedule; lowering
// injects the prefetches (lower/Prefetch.cpp). As upstream, the loops named
// are not checked when the hint is given.
#include "Halide/Error.h"
#include "Halide/Func.h"
#include "lower/Function.h"

namespace Halide {

using namespace Internal;

namespace {

void record_prefetch(FunctionContents &f, int stage, const std::string &name, const VarOrRVar &at,
                     const VarOrRVar &from, Expr offset, PrefetchBoundStrategy strategy) {
    user_assert(f.defined()) << "Can't schedule Func '" << f.name << "' before it has been defined";
    user_assert(offset.defined() && (offset.type().is_int() || offset.type().is_uint()))
        << "The prefetch offset of Func '" << f.name << "' must be an integer expression";
    f.prefetches.push_back({stage, name, at.name(), from.name(), std::move(offset), strategy});
}

} // namespace

Stage &Stage::prefetch(const Func &f, const VarOrRVar &at, const VarOrRVar &from, Expr offset,
                       PrefetchBoundStrategy strategy) {
    user_assert(f.defined()) << "Can't prefetch Func '" << f.name() << "' before it has been defined";
    record_prefetch(*f_, stage_, f.name(), at, from, std::move(offset), strategy);
    return *this;
}

Stage &Stage::prefetch(const Parameter &param, const VarOrRVar &at, const VarOrRVar &from, Expr offset,
                       PrefetchBoundStrategy strategy) {
    user_assert(param.defined() && param.is_buffer())
        << "prefetch of Func '" << f_->name << "' needs a buffer parameter (an ImageParam)";
    record_prefetch(*f_, stage_, param.name(), at, from, std::move(offset), strategy);
    return *this;
}

Func &Func::prefetch(const Func &f, const VarOrRVar &at, const VarOrRVar &from, Expr offset,
                     PrefetchBoundStrategy strategy) {
    Stage(f_, 0).prefetch(f, at, from, std::move(offset), strategy);
    return *this;
}

Func &Func::prefetch(const Parameter &param, const VarOrRVar &at, const VarOrRVar &from, Expr offset,
                     PrefetchBoundStrategy strategy) {
    Stage(f_, 0).prefetch(param, at, from, std::move(offset), strategy);
    return *this;
}

} // namespace Halide
