// ExternStages.cpp, for schedule_functions: an extern stage computing the
// region its query answers for its output.
//
// An extern stage's bounds query may widen the region of its output it is
// asked for (round it out to whole tiles): upstream then computes, and
// stores, the region answered. extern_stage_computing_answer is extern_stage
// for a stage stored where it is computed, with <required> the region its
// consumers need: first asked for its output over <required>, then, over
// the region it computes, for what it reads.
//
//   let f.extern.out.q<j>.<i> = (its input buffers for the query)
//   let f.extern.out.out.<i> = buffer_make(no host, <required>)
//   let f.extern.out.query = fn(...)
//   let <region>.min.d = min(<required>.min.d, what it answered)
//   let <region>.max.d = max(<required>.max.d, what it answered)
//   let <region>.extent.d = <region>.max.d - <region>.min.d + 1
//   (extern_stage's query over <region>)
//   assert(f.extern.out.query == 0)
//   assert(f.extern.query == 0)
//   (the stage over <region>, placed)
//
// Bounds inference sees <region> as <required> (a promise): what the stage
// reads comes from the second query's answers, which are bounded.
#ifndef HALIDE_LOWER_EXTERN_STAGES_H
#define HALIDE_LOWER_EXTERN_STAGES_H

#include <functional>
#include <string>

#include "lower/Passes.h"

namespace Halide {
namespace Internal {

Stmt extern_stage_computing_answer(const FunctionContents &f, const std::string &required, const std::string &region,
                                   const std::function<Stmt(const Stmt &)> &place);

} // namespace Internal
} // namespace Halide

#endif
