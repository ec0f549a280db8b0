// Pipeline::print_loop_nest(): the loops of a lowered statement (taken
// after bounds inference and simplification, before unrolling and
// vectorization) in upstream's print_loop_nest format:
//
//   produce f:
//     parallel y:
//       for x.xo:
//         vectorized x.xi in [0, 7]:
//           f(...) = ...
//   consume f:
//     ...
//
// Loops are named as upstream names them: the Var a loop descends from,
// then each split's, fuse's and rename's name, joined by dots ("x.xo.t"),
// without the Func and stage prefix. Loops of constant extent 1 are left
// out (upstream's simplifier removes them); constant bounds show as
// [min, max]. Lets, asserts and branches are not shown (the loops of both
// sides of a specialization's branch are).
#include <set>
#include <sstream>

#include "Halide/IROperator.h"
#include "Halide/Simplify.h"
#include "ir/Substitute.h"
#include "lower/Passes.h"

namespace Halide {
namespace Internal {

namespace {

// A name as upstream shows it: each '$' and what follows it up to the next
// '.' left out ("x$o" -> "x", "r$1.x_unroll" -> "r.x_unroll").
std::string user_part(const std::string &var) {
    std::string out;
    bool keep = true;
    for (char c : var) {
        keep = c == '$' ? false : c == '.' ? true : keep;
        if (keep) {
            out += c;
        }
    }
    return out;
}

// How one stage's variable shows: an RDom's variable ("r.x", "r$1.x" for a
// second RDom named r; upstream's "r$x"), or a loop keeping its name, as
// the RDom's name; anything else by user_part.
struct StageNames {
    std::set<std::string> rvars; // user_part of each RDom variable
    std::string rdom;            // user_part of the RDom's name
    std::string of(const std::string &var) const {
        std::string u = user_part(var);
        return rvars.count(u) ? rdom : u;
    }
};

// Internal loop name -> upstream's dotted name, for one stage's schedule.
void add_dotted_names(const std::vector<SplitStep> &splits, const std::vector<LoopDim> &dims, const StageNames &shown,
                      std::map<std::string, std::string> &names) {
    auto dotted = [&](const std::string &var) {
        auto it = names.find(var);
        return it == names.end() ? shown.of(var) : it->second;
    };
    for (const SplitStep &st : splits) {
        if (st.kind == SplitStep::Split) {
            std::string old = dotted(st.old_var);
            names[st.outer] = old + "." + shown.of(st.outer);
            names[st.inner] = old + "." + shown.of(st.inner);
        } else {
            names[st.old_var] = dotted(st.inner) + "." + shown.of(st.old_var);
        }
    }
    for (const LoopDim &d : dims) {
        std::string n = dotted(d.var);
        // rename(): the loop's current name differs from its incarnation's.
        if (d.name != d.var && shown.of(d.name) != shown.of(d.var) && d.name != n) {
            n += "." + shown.of(d.name);
        }
        names[d.var] = n;
    }
}

void add_stage_names(const std::vector<SplitStep> &splits, const std::vector<LoopDim> &dims,
                     const std::vector<Specialization> &specs, const ReductionDomainPtr &rdom,
                     std::map<std::string, std::string> &names) {
    StageNames shown;
    if (rdom) {
        shown.rdom = user_part(rdom->name);
        for (const ReductionVariable &r : rdom->domain) {
            shown.rvars.insert(user_part(r.var));
            names[r.var] = shown.rdom;
        }
    }
    add_dotted_names(splits, dims, shown, names);
    for_each_specialization(specs,
                            [&](const Specialization &sp) { add_dotted_names(sp.splits, sp.dims, shown, names); });
}

class LoopNestPrinter {
public:
    explicit LoopNestPrinter(const Environment &env) : env_(env) {
        for (const auto &[name, f] : env) {
            for (int k = 0; k <= (int)f->updates.size(); k++) {
                std::map<std::string, std::string> &names = stage_names_[name + ".s" + std::to_string(k)];
                if (k == 0) {
                    add_stage_names(f->splits, f->dims, f->specializations, nullptr, names);
                } else {
                    const UpdateDefinition &u = f->updates[(size_t)k - 1];
                    add_stage_names(u.splits, u.dims, u.specializations, u.rdom, names);
                }
            }
        }
    }

    std::string print(const Stmt &s) {
        stmt(s, 0);
        return out_.str();
    }

private:
    // The Func a loop belongs to ("f.s0.x" -> "f"), or "".
    std::string loop_func(const std::string &loop) const {
        std::string best;
        for (const auto &[name, f] : env_) {
            if (loop.compare(0, name.size() + 2, name + ".s") == 0 && name.size() > best.size()) {
                best = name;
            }
        }
        return best;
    }

    // The Func a store or realization is of ("f" or "f.1" of a Tuple -> "f").
    std::string buffer_func(const std::string &buffer) const {
        if (env_.count(buffer)) {
            return buffer;
        }
        size_t dot = buffer.rfind('.');
        return dot != std::string::npos && env_.count(buffer.substr(0, dot)) ? buffer.substr(0, dot) : buffer;
    }

    std::string loop_name(const std::string &loop) const {
        std::string f = loop_func(loop);
        if (f.empty()) {
            return loop;
        }
        size_t dot = loop.find('.', f.size() + 2);
        if (dot == std::string::npos) {
            return loop;
        }
        std::string stage = loop.substr(0, dot), var = loop.substr(dot + 1);
        auto names = stage_names_.find(stage);
        if (names != stage_names_.end()) {
            auto it = names->second.find(var);
            if (it != names->second.end()) {
                return it->second;
            }
        }
        return var;
    }

    // The Func whose stage `s` computes: the first loop's, or the first store's.
    std::string owner(const Stmt &s) const {
        if (const For *op = s.as<For>()) {
            std::string f = loop_func(op->name);
            return f.empty() ? owner(op->body) : f;
        }
        if (const LetStmt *op = s.as<LetStmt>()) {
            return owner(op->body);
        }
        if (const Block *op = s.as<Block>()) {
            std::string f = owner(op->first);
            return f.empty() ? owner(op->rest) : f;
        }
        if (const IfThenElse *op = s.as<IfThenElse>()) {
            // A specialization's branches compute the same stage; the
            // bounds query's branch computes nothing.
            std::string f = owner(op->then_case);
            return !op->else_case.defined() || owner(op->else_case) == f ? f : "";
        }
        if (const Store *op = s.as<Store>()) {
            return buffer_func(op->name);
        }
        if (const Provide *op = s.as<Provide>()) {
            return buffer_func(op->name);
        }
        return "";
    }

    void line(int indent, const std::string &text) { out_ << std::string((size_t)indent * 2, ' ') << text << "\n"; }

    // `e` with the lets and loops of one iteration known to be constants
    // substituted (upstream's simplifier has removed those by then).
    Expr known(const Expr &e) const { return known_.empty() ? e : simplify(substitute(known_, e)); }

    void remember_if_constant(const std::string &name, const Expr &value) {
        Expr v = known(value);
        if (v.as<IntImm>()) {
            known_[name] = v;
        }
    }

    // The statements of a sequence, seen through lets and storage (not shown).
    void flatten(const Stmt &s, std::vector<Stmt> &items) {
        if (const Block *b = s.as<Block>()) {
            flatten(b->first, items);
            flatten(b->rest, items);
        } else if (const LetStmt *l = s.as<LetStmt>()) {
            remember_if_constant(l->name, l->value);
            flatten(l->body, items);
        } else if (const Allocate *a = s.as<Allocate>()) {
            flatten(a->body, items);
        } else if (const Realize *r = s.as<Realize>()) {
            flatten(r->body, items);
        } else if (s.defined()) {
            items.push_back(s);
        }
    }

    // A sequence: the first statements, if they compute a Func g other than
    // the one whose loops enclose them, are "produce g", the ones after
    // them "consume g".
    void sequence(const std::vector<Stmt> &items, size_t first, int indent) {
        size_t i = first;
        while (i < items.size()) {
            std::string f = owner(items[i]);
            if (f.empty() || f == current_) {
                stmt(items[i++], indent);
                continue;
            }
            line(indent, "produce " + f + ":");
            std::string outer = current_;
            current_ = f; // a specialization's branches are f's, not another produce
            while (i < items.size() && owner(items[i]) == f) {
                stmt(items[i++], indent + 1);
            }
            current_ = outer;
            if (i < items.size()) {
                line(indent, "consume " + f + ":");
                sequence(items, i, indent + 1);
            }
            return;
        }
    }

    void sequence(const Stmt &s, int indent) {
        std::vector<Stmt> items;
        flatten(s, items);
        sequence(items, 0, indent);
    }

    void stmt(const Stmt &s, int indent) {
        if (!s.defined()) {
            return;
        }
        if (const For *op = s.as<For>()) {
            Expr min_value = known(op->min), extent_value = known(op->extent);
            const IntImm *min = min_value.as<IntImm>(), *extent = extent_value.as<IntImm>();
            std::string outer = current_;
            current_ = loop_func(op->name);
            if (extent && extent->value == 1) {
                remember_if_constant(op->name, min_value);
                sequence(op->body, indent);
                current_ = outer;
                return;
            }
            const char *kind = op->for_type == ForType::Parallel     ? "parallel "
                               : op->for_type == ForType::Vectorized ? "vectorized "
                               : op->for_type == ForType::Unrolled   ? "unrolled "
                                                                     : "for ";
            std::string text = kind + loop_name(op->name);
            if (min && extent) {
                text +=
                    " in [" + std::to_string(min->value) + ", " + std::to_string(min->value + extent->value - 1) + "]";
            }
            line(indent, text + ":");
            sequence(op->body, indent + 1);
            current_ = outer;
        } else if (s.as<Block>()) {
            sequence(s, indent);
        } else if (const LetStmt *op = s.as<LetStmt>()) {
            remember_if_constant(op->name, op->value);
            sequence(op->body, indent);
        } else if (const IfThenElse *op = s.as<IfThenElse>()) {
            sequence(op->then_case, indent);
            sequence(op->else_case, indent);
        } else if (const Allocate *op = s.as<Allocate>()) {
            sequence(op->body, indent);
        } else if (const Realize *op = s.as<Realize>()) {
            sequence(op->body, indent);
        } else if (const Atomic *op = s.as<Atomic>()) {
            stmt(op->body, indent);
        } else if (const Store *op = s.as<Store>()) {
            line(indent, buffer_func(op->name) + "(...) = ...");
        } else if (const Provide *op = s.as<Provide>()) {
            line(indent, buffer_func(op->name) + "(...) = ...");
        }
        // Evaluate, AssertStmt: not part of the loop nest.
    }

    const Environment &env_;
    std::map<std::string, std::map<std::string, std::string>> stage_names_;
    std::ostringstream out_;
    std::string current_;               // the Func whose loop encloses the statement printed
    std::map<std::string, Expr> known_; // lets and one-iteration loops of constant value
};

} // namespace

std::string loop_nest_text(const Stmt &s, const Environment &env) {
    return LoopNestPrinter(env).print(s);
}

} // namespace Internal
} // namespace Halide
