// See Passes.h: loop nests and realizations.
//
// An output Func loops over its output buffer's region (the variables
// `f.min.d` and `f.extent.d`, bound from the buffer by add_image_checks).
// A compute_root Func g is wrapped around everything that consumes it:
//
//   let g.min.d = ..., g.extent.d = ...     (the region its consumers need)
//   realize g { produce g (loops over that region); consumers }
//
// Funcs are wrapped in reverse realization order, so when g is placed, all
// of its consumers are already in the statement and bounds inference over
// that statement gives the region g must cover.
#include <set>

#include "Halide/Error.h"
#include "Halide/IRPrinter.h"
#include "analysis/Interval.h"
#include "ir/Substitute.h"
#include "lower/Passes.h"

namespace Halide {
namespace Internal {
namespace {

// for f.s0.y: for f.s0.x: f(x, y) = value   (the first argument innermost)
Stmt produce(const FunctionContents &f) {
    std::map<std::string, Expr> renames;
    std::vector<Expr> site;
    for (const std::string &a : f.args) {
        Expr v = var_int32(loop_var_name(f.name, a));
        renames[a] = v;
        site.push_back(v);
    }
    std::vector<Expr> values;
    for (const Expr &v : f.values) {
        values.push_back(substitute(renames, v));
    }
    Stmt s = Provide::make(f.name, values, site);
    for (size_t d = 0; d < f.args.size(); d++) {
        s = For::make(loop_var_name(f.name, f.args[d]), buffer_field(f.name, "min", (int)d),
                      buffer_field(f.name, "extent", (int)d), ForType::Serial, s);
    }
    return s;
}

}  // namespace

Stmt schedule_functions(const Environment &env, const std::vector<std::string> &order,
                        const std::vector<FunctionPtr> &outputs) {
    std::set<std::string> output_names;
    std::vector<Stmt> output_nests;
    for (const FunctionPtr &f : outputs) {
        output_names.insert(f->name);
        output_nests.push_back(produce(*env.at(f->name)));
    }
    Stmt s = Block::make(output_nests);
    for (auto it = order.rbegin(); it != order.rend(); ++it) {
        if (output_names.count(*it) || !env.count(*it)) {
            continue;  // outputs are already there; inlined Funcs are gone
        }
        const FunctionContents &g = *env.at(*it);
        auto boxes = boxes_required(s);
        auto found = boxes.find(g.name);
        if (found == boxes.end()) {
            continue;  // nothing consumes it any more
        }
        const Box &box = found->second;
        std::vector<Range> bounds;
        for (size_t d = 0; d < box.size(); d++) {
            if (!box[d].is_bounded()) {
                user_error << "Can't infer the region of Func '" << g.name << "' its consumers need: the "
                           << (box[d].min.defined() ? "maximum" : "minimum") << " of dimension " << d << " ('"
                           << g.args[d] << "') is unbounded. Clamp the coordinates where it is called, or "
                           << "schedule it inline.";
            }
            bounds.push_back({buffer_field(g.name, "min", (int)d), buffer_field(g.name, "extent", (int)d)});
        }
        std::vector<Type> types;
        for (const Expr &v : g.values) {
            types.push_back(v.type());
        }
        s = Realize::make(g.name, types, bounds, Block::make(produce(g), s));
        for (size_t d = box.size(); d-- > 0;) {
            Expr extent = Add::make(Sub::make(box[d].max, box[d].min), int32_const(1));
            s = LetStmt::make(g.name + ".extent." + std::to_string(d), extent, s);
            s = LetStmt::make(g.name + ".min." + std::to_string(d), box[d].min, s);
        }
    }
    return s;
}

}  // namespace Internal
}  // namespace Halide
