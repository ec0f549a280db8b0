// See LegalLocations.h: the part of upstream's "invalid location" error that says
// where a Func could be computed instead, and where it is used:
//
//   Legal locations for this function are:
//     g.compute_root();
//     g.compute_at(f, Var::outermost());
//     g.compute_at(f, y);
//     g.compute_at(f, x);
//   "g" is used in the following places:
//    for f.s0.y:
//     for f.s0.x:
//      f uses g
//    ...
//
// The legal levels are the loops around every use of g (calls from g's own
// update definitions do not count), outermost first, each Func's
// Var::outermost() before its first loop. A loop is named by the Func it
// belongs to and the name the schedule gave it, as compute_at takes it;
// the same name in two stages of a Func is one level.
#include <sstream>

#include "Halide/IREquality.h"
#include "Halide/IRVisitor.h"
#include "Halide/Var.h"
#include "lower/LegalLocations.h"

namespace Halide {
namespace Internal {

namespace {

struct Level {
    std::string func, var;
    bool operator==(const Level &o) const { return func == o.func && var == o.var; }
};

struct Use {
    std::string consumer;
    std::vector<std::string> loops; // outermost first
    std::vector<Expr> args;         // of the call: each distinct call is a use, as upstream lists them
};

class FindUses : public IRVisitor {
public:
    explicit FindUses(const std::string &g) : g_(g) {}
    std::vector<Use> uses;

    using IRVisitor::visit;
    void visit(const For *op) override {
        op->min.accept(this);
        op->extent.accept(this);
        loops_.push_back(op->name);
        op->body.accept(this);
        loops_.pop_back();
    }
    void visit(const Provide *op) override {
        std::string outer = producing_;
        producing_ = op->name;
        IRVisitor::visit(op);
        producing_ = outer;
    }
    void visit(const Call *op) override {
        IRVisitor::visit(op);
        if (op->call_type != Call::Halide || op->name != g_ || producing_.empty() || producing_ == g_) {
            return;
        }
        // The same call seen again (a Tuple-valued Func's call of each value
        // element) is one use.
        for (const Use &u : uses) {
            if (u.consumer == producing_ && u.loops == loops_ && same_args(u.args, op->args)) {
                return;
            }
        }
        uses.push_back({producing_, loops_, op->args});
    }

private:
    static bool same_args(const std::vector<Expr> &a, const std::vector<Expr> &b) {
        if (a.size() != b.size()) {
            return false;
        }
        for (size_t i = 0; i < a.size(); i++) {
            if (!equal(a[i], b[i])) {
                return false;
            }
        }
        return true;
    }

    std::string g_, producing_;
    std::vector<std::string> loops_;
};

// Each loop's level, by the loop's name in the statement.
std::map<std::string, Level> loop_levels(const Environment &env) {
    std::map<std::string, Level> levels;
    const std::string outermost = Var::outermost().name();
    for (const auto &[name, f] : env) {
        for (int stage = 0; stage <= (int)f->updates.size(); stage++) {
            levels[loop_var_name(name, outermost, stage)] = {name, outermost};
            for_each_stage_dim(*f, stage, [&, name = name](const LoopDim &d) {
                levels[loop_var_name(name, d.var, stage)] = {name, d.name};
            });
        }
    }
    return levels;
}

// The levels around one use, outermost first.
std::vector<Level> levels_around(const Use &u, const std::map<std::string, Level> &levels) {
    std::vector<Level> out;
    const std::string outermost = Var::outermost().name();
    for (const std::string &loop : u.loops) {
        auto it = levels.find(loop);
        if (it == levels.end()) {
            continue;
        }
        bool seen_func = false;
        for (const Level &l : out) {
            seen_func = seen_func || l.func == it->second.func;
        }
        if (!seen_func && it->second.var != outermost) {
            out.push_back({it->second.func, outermost});
        }
        bool seen = false;
        for (const Level &l : out) {
            seen = seen || l == it->second;
        }
        if (!seen) {
            out.push_back(it->second);
        }
    }
    return out;
}

} // namespace

std::string legal_locations_text(const FunctionContents &g, const Stmt &s, const Environment &env) {
    FindUses finder(g.name);
    s.accept(&finder);
    const std::map<std::string, Level> levels = loop_levels(env);
    std::vector<Level> legal;
    for (size_t i = 0; i < finder.uses.size(); i++) {
        std::vector<Level> around = levels_around(finder.uses[i], levels);
        if (i == 0) {
            legal = around;
            continue;
        }
        std::vector<Level> kept;
        for (const Level &l : legal) {
            for (const Level &a : around) {
                if (l == a) {
                    kept.push_back(l);
                    break;
                }
            }
        }
        legal = kept;
    }
    std::ostringstream out;
    out << "Legal locations for this function are:\n  " << g.name << ".compute_root();\n";
    for (const Level &l : legal) {
        std::string var = l.var == Var::outermost().name() ? "Var::outermost()" : l.var;
        out << "  " << g.name << ".compute_at(" << l.func << ", " << var << ");\n";
    }
    out << "\"" << g.name << "\" is used in the following places:\n";
    // The uses as a tree: loops a use shares with the one before are not repeated.
    const std::vector<std::string> *previous = nullptr;
    for (const Use &u : finder.uses) {
        size_t shared = 0;
        while (previous && shared < previous->size() && shared < u.loops.size() &&
               (*previous)[shared] == u.loops[shared]) {
            shared++;
        }
        for (size_t i = shared; i < u.loops.size(); i++) {
            out << std::string(i + 1, ' ') << "for " << u.loops[i] << ":\n";
        }
        out << std::string(u.loops.size() + 1, ' ') << u.consumer << " uses " << g.name << "\n";
        previous = &u.loops;
    }
    // Upstream's mark for the rest of the pipeline, left out.
    out << " ...\n";
    return out.str();
}

} // namespace Internal
} // namespace Halide
