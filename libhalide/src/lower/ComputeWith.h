// ComputeWith.cpp, for schedule_functions: the fused groups it fuses
// before placing the Funcs computed in their loops.
//
// A Func computed or stored at a loop that a parent shares with its child
// (a loop from the parent's outermost down to the fused one, or the
// parent's Var::outermost()) is computed there for both stages, as
// upstream's. Its region must cover both, so the group is fused once its
// Funcs are placed, before their producers are (fuse_group). A child's loop
// such a Func is placed at stays in the fused nest as a loop of one
// iteration (kept_loops), so that Func is computed within the child's part.
#ifndef HALIDE_LOWER_COMPUTE_WITH_H
#define HALIDE_LOWER_COMPUTE_WITH_H

#include <set>
#include <string>

#include "lower/Passes.h"

namespace Halide {
namespace Internal {

struct EarlyFusion {
    std::set<std::set<std::string>> groups; // the groups fused early, each its Funcs
    std::set<std::string> kept_loops;       // children's loops a Func is placed at
};
EarlyFusion fused_before_placing(const Environment &env);

// fuse_compute_with for the pairs whose child is in `group` only, the
// marks left on (fuse_compute_with takes them off at the end).
Stmt fuse_group(const Stmt &s, const Environment &env, const std::set<std::string> &group,
                const std::set<std::string> &kept_loops);

} // namespace Internal
} // namespace Halide

#endif
