// See Passes.h: sliding window.
//
// A Func g stored outside a serial loop and computed inside it (its region
// lets g.c.min.d / g.c.max.d open the loop's body) computes, in every
// iteration after the first, only the part of its region past what the
// previous iteration computed:
//
//   for (y, y.min, ...)
//     let g.c.min.1 = select(y > y.min, max(<g.c.max.1 at y - 1> + 1, <min>), <min>)
//     let g.c.max.1 = <max>
//     produce g over [g.c.min.1, g.c.max.1]; consumers
//
// when exactly one dimension of the region depends on y and both its ends
// never decrease as y grows (or, symmetrically, never increase: then the
// max is lowered instead); a region that does not depend on y at all is
// computed by the first iteration only. Why that is enough: rows [min(y), max(y - 1)]
// lie in [min(y - 1), max(y - 1)] (the min does not decrease), which the
// iterations up to y - 1 have computed, and the storage outside the loop
// keeps them. The new bound is clamped to the region itself, so nothing
// outside what the schedule already computed (and stored) is computed.
//
// The ends are judged on the values the lets actually take, including the
// already slid regions of consumers at the same loop (a slid end is
// monotonic in the same direction as the end it replaced), so chains of
// line-buffered Funcs slide together. Funcs with update definitions keep
// their full region (a partial recomputation would redo the pure stage over
// rows the updates already finished).
#include <set>
#include <sstream>

#include "Halide/IRMutator.h"
#include "Halide/IROperator.h"
#include "Halide/IRPrinter.h"
#include "Halide/Simplify.h"
#include "analysis/Monotonic.h"
#include "ir/Substitute.h"
#include "lower/Passes.h"

namespace Halide {
namespace Internal {
namespace {

// Whether e is short enough to write out (the previous iteration's bound
// is spelled in full: a long chain of regions could make it huge).
bool small_enough(const Expr &e) {
    std::ostringstream text;
    text << e;
    return text.str().size() < 4000;
}

// The name of the region let `<func>.c.<field>.<d>`, split up.
struct RegionLet {
    std::string func, field;
    int dim = -1;
};

bool parse_region_let(const std::string &name, RegionLet &out) {
    size_t last = name.rfind('.');
    if (last == std::string::npos || last + 1 >= name.size()) {
        return false;
    }
    std::string dim = name.substr(last + 1);
    if (dim.find_first_not_of("0123456789") != std::string::npos) {
        return false;
    }
    size_t field = name.rfind('.', last - 1);
    if (field == std::string::npos || field < 2 || name.compare(field - 2, 2, ".c") != 0) {
        return false;
    }
    out.field = name.substr(field + 1, last - field - 1);
    out.func = name.substr(0, field - 2);
    out.dim = std::stoi(dim);
    return !out.func.empty();
}

class SlideLoops : public IRMutator {
public:
    explicit SlideLoops(const Environment &env) : env_(env) {}

    using IRMutator::visit;

    Stmt visit(const Realize *op) override {
        realized_.insert(op->name);
        Stmt s = IRMutator::visit(op);
        realized_.erase(realized_.find(op->name));
        return s;
    }

    Stmt visit(const For *op) override {
        Stmt body = op->body;
        if (op->for_type == ForType::Serial || op->for_type == ForType::Unrolled) {
            body = slide(op, body);
        }
        body = mutate(body);
        return body.same_as(op->body) ? self_stmt(op) : For::make(op->name, op->min, op->extent, op->for_type, body);
    }

private:
    struct Let {
        std::string name;
        Expr value;
    };

    // The lets opening a loop's body, with the regions of the Funcs that
    // can slide along the loop rewritten.
    Stmt slide(const For *loop, const Stmt &body) {
        std::vector<Let> lets;
        Stmt inside = body;
        while (const LetStmt *l = inside.as<LetStmt>()) {
            lets.push_back({l->name, l->value});
            inside = l->body;
        }
        if (lets.empty()) {
            return body;
        }
        std::map<std::string, Monotonic> mono;  // each let's direction along the loop
        std::map<std::string, Expr> expanded;   // each let's value in terms of the loop and outer names
        std::map<std::string, size_t> position; // index in `lets`
        bool changed = false;
        for (size_t i = 0; i < lets.size(); i++) {
            const Let &l = lets[i];
            mono[l.name] = is_monotonic(l.value, loop->name, mono);
            expanded[l.name] = simplify(substitute(expanded, l.value));
            position[l.name] = i;
            RegionLet r;
            if (!parse_region_let(l.name, r) || r.field != "extent") {
                continue;
            }
            // The last let of a region (extent of its last dimension): the
            // whole region is known now.
            auto f = env_.find(r.func);
            if (f == env_.end() || r.dim + 1 != (int)f->second->args.size()) {
                continue;
            }
            if (try_slide(*f->second, loop, lets, mono, expanded, position)) {
                // The lets from the slid one on take its new value.
                changed = true;
                std::map<std::string, Expr> outer;
                for (size_t k = 0; k <= i; k++) {
                    if (k > 0) {
                        outer[lets[k - 1].name] = expanded[lets[k - 1].name];
                    }
                    if (k > trail_) {
                        mono[lets[k].name] = is_monotonic(lets[k].value, loop->name, mono);
                    }
                    if (k >= trail_) {
                        expanded[lets[k].name] = simplify(substitute(outer, lets[k].value));
                    }
                }
            }
        }
        if (!changed) {
            return body;
        }
        Stmt s = inside;
        for (size_t i = lets.size(); i-- > 0;) {
            s = LetStmt::make(lets[i].name, lets[i].value, s);
        }
        return s;
    }

    bool try_slide(const FunctionContents &g, const For *loop, std::vector<Let> &lets,
                   std::map<std::string, Monotonic> &mono, std::map<std::string, Expr> &expanded,
                   const std::map<std::string, size_t> &position) {
        if (!g.updates.empty() || !realized_.count(g.name)) {
            return false; // updates, or stored inside this loop: nothing to reuse
        }
        int dim = -1;
        for (int d = 0; d < (int)g.args.size(); d++) {
            std::string prefix = g.name + ".c.";
            std::string suffix = "." + std::to_string(d);
            auto mn = mono.find(prefix + "min" + suffix), mx = mono.find(prefix + "max" + suffix);
            if (mn == mono.end() || mx == mono.end()) {
                return false; // the region is not (all) at this loop
            }
            if (mn->second == Monotonic::Constant && mx->second == Monotonic::Constant) {
                continue;
            }
            if (dim >= 0) {
                return false; // two dimensions move: upstream slides along one only
            }
            dim = d;
        }
        if (dim < 0) {
            if (g.args.empty()) {
                return false;
            }
            // The same region every iteration: the first computes it, the
            // others nothing (the min slides past the max), as upstream's.
            dim = 0;
        }
        std::string suffix = "." + std::to_string(dim);
        std::string min_name = g.name + ".c.min" + suffix, max_name = g.name + ".c.max" + suffix;
        Monotonic mn = mono[min_name], mx = mono[max_name];
        auto up = [](Monotonic m) { return m == Monotonic::Increasing || m == Monotonic::Constant; };
        auto down = [](Monotonic m) { return m == Monotonic::Decreasing || m == Monotonic::Constant; };
        bool forward = up(mn) && up(mx);
        if (!forward && !(down(mn) && down(mx))) {
            return false;
        }
        // The end that moves on, at the previous iteration.
        const std::string &lead = forward ? max_name : min_name;
        const std::string &trail = forward ? min_name : max_name;
        Expr loop_var = Variable::make(Int(32), loop->name);
        Expr previous =
            simplify(substitute({{loop->name, Sub::make(loop_var, IntImm::make(Int(32), 1))}}, expanded.at(lead)));
        if (!small_enough(previous)) {
            return false;
        }
        Let &t = lets[position.at(trail)];
        Expr steady = forward ? Max::make(Add::make(previous, IntImm::make(Int(32), 1)), t.value)
                              : Min::make(Sub::make(previous, IntImm::make(Int(32), 1)), t.value);
        t.value = Select::make(GT::make(loop_var, loop->min), steady, t.value);
        // Still monotonic the same way; its expansion now has the select.
        mono[trail] = forward ? Monotonic::Increasing : Monotonic::Decreasing;
        trail_ = position.at(trail);
        return true;
    }

    const Environment &env_;
    std::multiset<std::string> realized_;
    size_t trail_ = 0; // the let the last successful try_slide rewrote
};

} // namespace

Stmt sliding_window(const Stmt &s, const Environment &env) {
    return SlideLoops(env).mutate(s);
}

} // namespace Internal
} // namespace Halide
