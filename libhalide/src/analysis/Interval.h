// Interval analysis: the range of values an expression can take, given the
// ranges of the variables it uses. The basis of bounds inference.
#ifndef HALIDE_INTERNAL_INTERVAL_H
#define HALIDE_INTERNAL_INTERVAL_H

#include <map>
#include <string>
#include <vector>

#include "Halide/IR.h"
#include "Halide/Interval.h"

namespace Halide {
namespace Internal {

// Intervals here (Halide/Interval.h) leave an unbounded end undefined:
// bounds inference never builds upstream's pos_inf()/neg_inf() markers, so
// `min.defined()` is "has a lower bound" throughout.
Interval interval_union(const Interval &a, const Interval &b);

// Variable name -> its range. Variables not in scope are taken as symbols
// (their own single point).
using Scope = std::map<std::string, Interval>;

Interval bounds_of_expr(const Expr &e, const Scope &scope);

// The values each Func can take, by (Func name, value index): a call of a
// Func listed here is bounded by its interval (else by its type's range),
// as upstream's function value bounds. Lowering lists them for its
// duration with a FuncValueBoundsScope (per thread; scopes nest).
using FuncValueBounds = std::map<std::pair<std::string, int>, Interval>;
class FuncValueBoundsScope {
public:
    explicit FuncValueBoundsScope(FuncValueBounds bounds);
    ~FuncValueBoundsScope();
    FuncValueBoundsScope(const FuncValueBoundsScope &) = delete;
    FuncValueBoundsScope &operator=(const FuncValueBoundsScope &) = delete;

private:
    FuncValueBounds bounds_;
    const FuncValueBounds *outer_;
};

// One interval per dimension, and the condition under which the region is
// used at all (undefined: always). Where `used` is false nothing is read,
// and the intervals may be anything (readers that ignore `used` get a
// region that is sound whenever it is used, as the hull was).
struct Box : std::vector<Interval> {
    using std::vector<Interval>::vector;
    Expr used;
    bool maybe_unused() const { return used.defined(); }
};
// Both regions: each where only it is used, their hull where both are.
Box box_union(const Box &a, const Box &b);
// Where both hold: two sound bounds of one region give a tighter sound one.
// An unbounded end of either is the other's.
Box box_intersection(const Box &a, const Box &b);

// The region of every Func and input buffer called in `s` (by Call name),
// in terms of the variables in scope outside `s`. Calls under an `if`
// whose condition those variables decide (a specialization's) are used
// only where it holds, or fails for its else.
std::map<std::string, Box> boxes_required(const Stmt &s, const Scope &outer = {});
// The same, counting the coordinates of Provides as well as calls.
std::map<std::string, Box> boxes_touched(const Stmt &s, const Scope &outer = {});
// The region of each Func whose values matter: as boxes_required, but a
// call in a select's branch counts only where the select's condition,
// solved for a loop variable (x < 100, 2 * x + 1 >= e), picks that branch.
// A select evaluates both its branches, so the region loaded is still
// boxes_required's: this is the region to compute, not to allocate or check.
std::map<std::string, Box> boxes_selected(const Stmt &s, const Scope &outer = {});

} // namespace Internal
} // namespace Halide

#endif
