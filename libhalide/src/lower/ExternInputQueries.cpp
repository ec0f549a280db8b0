// See Passes.h: the regions extern stages read of their input buffers.
//
// An extern stage tells what it reads only when asked (a bounds query with
// its input's shape copied, no data). Computed inside a loop, it is asked
// there for that iteration's region; the pipeline checks (and a bounds query
// of the pipeline answers) its input buffers before any loop runs. So, as
// upstream's root-level query, each extern stage given an input buffer is
// also asked once, first, over the union of every region of it computed:
//
//   let f.extern.root.region.min.d/.max.d/.extent.d = <every region of f>
//   let f.extern.root.q<j>.0 = buffer_make(no host, input j's shape)
//   let f.extern.root.query = fn(query buffers, scalars, <that region>)
//   let f.extern.root.q<j>.min.d/.extent.d/.max.d = what fn asked for
//   (the lets of every such stage, then)
//   assert(f.extern.root.query == 0)
//   <the pipeline>
//
// The stage's marker reads input j over those answers (ExternStages.cpp),
// so AddImageChecks finds them, in lets that open the statement. A stage
// given a Func is asked too where a Func input computed outside the stage's
// loops was bounded by those answers (the promise its query's answers lie
// within them): a compute_root Func read by a stage computed per row.
#include <set>

#include "Halide/Error.h"
#include "lower/Passes.h"

namespace Halide {
namespace Internal {

Stmt extern_input_queries(const Stmt &in, const Environment &env) {
    std::map<std::string, Box> touched;
    Stmt s = in;
    std::set<std::string> asked; // the stages whose root answers bound a Func input's region
    for (const auto &[name, f] : env) {
        bool used = false;
        if (reads_funcs(*f)) {
            s = unbound_by_root(s, *f, &used);
        }
        if (used || reads_buffers(*f)) {
            asked.insert(name);
        }
    }
    if (asked.empty()) {
        return s;
    }
    touched = boxes_touched(s);
    // All the lets first, then the checks: AddImageChecks sees the lets
    // that open the statement as names (the answers stay symbolic).
    std::vector<std::pair<std::string, Expr>> lets;
    std::vector<Stmt> checks;
    for (const auto &[name, f] : env) {
        auto region = touched.find(name);
        if (asked.count(name) && region != touched.end()) {
            for (const Interval &i : region->second) {
                user_assert(i.is_bounded()) << "Can't infer the region of extern stage " << name
                                            << " computed, to ask it what it reads of its input buffers.";
            }
            extern_root_query(*f, region->second, lets, checks);
        }
    }
    checks.push_back(s);
    Stmt result = Block::make(checks);
    for (auto it = lets.rbegin(); it != lets.rend(); ++it) {
        result = LetStmt::make(it->first, it->second, result);
    }
    return result;
}

} // namespace Internal
} // namespace Halide
