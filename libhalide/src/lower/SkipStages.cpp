// See Passes.h: a producer computed only when its result is used. After
// memoization is injected, the body of each Func's Allocate reads as a
// list of statements and lets (a let's scope runs to the end of the list:
// names are unique):
//
//   ...before; production of f (every statement writing f); ...uses of f
//
// When every read of f in the uses happens under a condition c that is the
// same everywhere in them (a specialization's branch, a select or if on a
// scalar Param, a memoized consumer's cache miss), that is
//
//   ...before; if (c) { production of f }; ...uses of f
//
// and, when c names only what is known before the Allocate and f's size is
// not constant, f's first extent is select(c, extent, 0), so an unused f
// allocates nothing (as upstream: its allocator is still called, for zero
// bytes). Lets among the uses that c needs (a memoized consumer's cache
// lookup) move before the Allocate first, when they read nothing defined
// inside it. Inner Allocates are done first, so a producer of a skipped
// producer is skipped under the same condition.
//
// Left as they are: conditions that vary inside a loop, read memory, or
// name a let of the production; productions that write other buffers too
// (compute_with), that allocate a buffer (a Tuple's other values), or whose
// lets the uses read; producers never read after their production.
#include <algorithm>
#include <set>

#include "Halide/IREquality.h"
#include "Halide/IRMutator.h"
#include "Halide/IROperator.h"
#include "Halide/IRVisitor.h"
#include "Halide/Simplify.h"
#include "lower/Passes.h"

namespace Halide {
namespace Internal {
namespace {

// One element of a flattened body: a statement, or a let (`name` set).
struct Item {
    std::string name;
    Expr value;
    Stmt stmt;
    bool is_let() const { return !name.empty(); }
};

void flatten(const Stmt &s, std::vector<Item> &out) {
    if (const Block *b = s.as<Block>()) {
        flatten(b->first, out);
        flatten(b->rest, out);
    } else if (const LetStmt *l = s.as<LetStmt>()) {
        out.push_back({l->name, l->value, Stmt()});
        flatten(l->body, out);
    } else if (s.defined()) {
        out.push_back({"", Expr(), s});
    }
}

Stmt rebuild(const std::vector<Item> &items, size_t from = 0) {
    std::vector<Stmt> run;
    for (size_t i = from; i < items.size(); i++) {
        if (items[i].is_let()) {
            run.push_back(LetStmt::make(items[i].name, items[i].value, rebuild(items, i + 1)));
            break;
        }
        run.push_back(items[i].stmt);
    }
    return run.empty() ? Evaluate::make(0) : Block::make(run);
}

// Names of variables, buffers stored to, lets and loops of a Stmt or Expr,
// and whether it loads or calls anything.
class Names : public IRVisitor {
public:
    std::set<std::string> vars, stores, bound, allocated, loads;
    bool impure = false;
    using IRVisitor::visit;
    void visit(const Variable *op) override { vars.insert(op->name); }
    void visit(const Store *op) override {
        stores.insert(op->name);
        IRVisitor::visit(op);
    }
    void visit(const Load *op) override {
        loads.insert(op->name);
        IRVisitor::visit(op);
    }
    void visit(const Call *op) override {
        impure = true; // a call may read memory or have effects
        IRVisitor::visit(op);
    }
    void visit(const LetStmt *op) override {
        bound.insert(op->name);
        IRVisitor::visit(op);
    }
    void visit(const Let *op) override {
        bound.insert(op->name);
        IRVisitor::visit(op);
    }
    void visit(const For *op) override {
        bound.insert(op->name);
        IRVisitor::visit(op);
    }
    void visit(const Allocate *op) override {
        allocated.insert(op->name);
        IRVisitor::visit(op);
    }
};

Names names_of(const Stmt &s) {
    Names n;
    n.include(s);
    return n;
}
Names names_of(const Expr &e) {
    Names n;
    n.include(e);
    return n;
}

// The condition under which s (or e) reads buffer f: false where it does
// not, true where it can't say.
class UseCondition {
public:
    explicit UseCondition(const std::string &f) : f_(f) {}

    Expr of(const Stmt &s) {
        if (!mentions(s)) {
            return const_false();
        }
        if (const Block *b = s.as<Block>()) {
            return either(of(b->first), of(b->rest));
        }
        if (const IfThenElse *op = s.as<IfThenElse>()) {
            Expr t = of(op->then_case);
            Expr e = op->else_case.defined() ? of(op->else_case) : const_false();
            return either(of(op->condition), branch(op->condition, t, e));
        }
        if (const For *op = s.as<For>()) {
            Expr body = of(op->body);
            Expr c = either(either(of(op->min), of(op->extent)), body);
            return invariant(c, op->name);
        }
        if (const LetStmt *op = s.as<LetStmt>()) {
            return invariant(either(of(op->value), of(op->body)), op->name);
        }
        if (const Store *op = s.as<Store>()) {
            return either(of(op->value), of(op->index));
        }
        if (const Evaluate *op = s.as<Evaluate>()) {
            return of(op->value);
        }
        if (const Allocate *op = s.as<Allocate>()) {
            Expr c = either(of(op->body), of(op->new_expr));
            for (const Expr &e : op->extents) {
                c = either(c, of(e));
            }
            return c;
        }
        return const_true(); // anything else: any read in it
    }

    Expr of(const Expr &e) {
        if (!e.defined() || !mentions(e)) {
            return const_false();
        }
        if (const Select *op = e.as<Select>()) {
            return either(of(op->condition), branch(op->condition, of(op->true_value), of(op->false_value)));
        }
        return const_true();
    }

private:
    static Expr either(const Expr &a, const Expr &b) {
        if (is_const_zero(a) || is_const_one(b)) {
            return b;
        }
        if (is_const_zero(b) || is_const_one(a)) {
            return a;
        }
        return Or::make(a, b);
    }
    // Where `cond` (a scalar known before the loops) picks t or e.
    static Expr branch(const Expr &cond, const Expr &t, const Expr &e) {
        if (!cond.type().is_scalar() || names_of(cond).impure || !names_of(cond).loads.empty()) {
            return either(t, e);
        }
        if (is_const_zero(e)) {
            return is_const_zero(t) ? t : And::make(cond, t);
        }
        if (is_const_zero(t)) {
            return And::make(Not::make(cond), e);
        }
        return Or::make(And::make(cond, t), And::make(Not::make(cond), e));
    }
    // c, unless it names `var` (a loop's or let's, defined inside).
    static Expr invariant(const Expr &c, const std::string &var) {
        return names_of(c).vars.count(var) ? const_true() : c;
    }
    bool reads(const Names &n) const {
        return n.loads.count(f_) || n.vars.count(f_) || n.vars.count(f_ + ".buffer") || n.vars.count(f_ + ".host");
    }
    bool mentions(const Stmt &s) const { return reads(names_of(s)); }
    bool mentions(const Expr &e) const { return reads(names_of(e)); }
    std::string f_;
};

// Does item i write f: a store to it, or (an extern stage) the call computing it?
bool writes(const Item &item, const std::string &f) {
    if (item.is_let()) {
        return item.name == f + ".extern.result";
    }
    Names n = names_of(item.stmt);
    return n.stores.count(f) || n.bound.count(f + ".extern.result");
}

class SkipStages : public IRMutator {
public:
    explicit SkipStages(const Environment &env) : env_(env) {}
    using IRMutator::visit;

    Stmt visit(const Allocate *op) override {
        Stmt body = mutate(op->body);
        Stmt same = body.same_as(op->body) ? Stmt(op) : Stmt();
        auto keep = [&]() {
            return same.defined() ? same
                                  : Allocate::make(op->name, op->type, op->memory_type, op->extents, body, op->new_expr,
                                                   op->free_function);
        };
        const std::string &f = op->name;
        // Async producers (their consumers wait on them) and hoisted storage
        // keep the structure those passes expect.
        auto func = env_.find(f);
        if (func == env_.end() || func->second->async || func->second->hoist != ComputeLevel::Inlined) {
            return keep();
        }
        std::vector<Item> items;
        flatten(body, items);
        size_t first = items.size(), last = items.size();
        for (size_t i = 0; i < items.size(); i++) {
            if (writes(items[i], f)) {
                first = std::min(first, i);
                last = i;
            }
        }
        if (last == items.size()) {
            return keep();
        }
        // The production's lets: only asserts right after it may read them.
        std::set<std::string> production_lets;
        for (size_t i = first; i <= last; i++) {
            if (items[i].is_let()) {
                production_lets.insert(items[i].name);
            }
        }
        while (last + 1 < items.size() && !items[last + 1].is_let() && items[last + 1].stmt.as<AssertStmt>() &&
               !production_lets.empty()) {
            last++;
        }
        // It writes only f (and buffers it allocates) and allocates nothing else.
        for (size_t i = first; i <= last; i++) {
            if (items[i].is_let()) {
                continue;
            }
            Names n = names_of(items[i].stmt);
            for (const std::string &b : n.stores) {
                if (b != f && !n.allocated.count(b)) {
                    return keep();
                }
            }
            if (items[i].stmt.as<Allocate>()) {
                return keep(); // the writes in another buffer's Allocate (a Tuple's values)
            }
            for (const std::string &b : n.bound) {
                if (b.size() > 15 && b.compare(b.size() - 14, 14, ".extern.result") == 0 && b != f + ".extern.result") {
                    return keep();
                }
            }
        }
        // The uses and the condition under which they read f.
        UseCondition use(f);
        Expr cond = const_false();
        std::set<std::string> later_vars;
        for (size_t i = last + 1; i < items.size(); i++) {
            Expr c = items[i].is_let() ? use.of(items[i].value) : use.of(items[i].stmt);
            cond = is_const_zero(cond) ? c : Or::make(cond, c);
            Names n = items[i].is_let() ? names_of(items[i].value) : names_of(items[i].stmt);
            later_vars.insert(n.vars.begin(), n.vars.end());
        }
        for (const std::string &name : production_lets) {
            if (later_vars.count(name)) {
                return keep();
            }
        }
        if (last + 1 == items.size()) {
            return keep(); // never read after: an output, or read by nothing
        }
        cond = simplify(cond);
        if (is_const_one(cond)) {
            return keep();
        }
        Names cond_names = names_of(cond);
        if (cond_names.impure || !cond_names.loads.empty()) {
            return keep();
        }
        // Lets among the uses that the condition needs, moved before the Allocate.
        std::set<std::string> needed = cond_names.vars, inside_names;
        for (size_t i = 0; i <= last; i++) {
            if (items[i].is_let()) {
                inside_names.insert(items[i].name);
            }
        }
        std::vector<Item> hoisted, rest;
        for (size_t i = items.size(); i-- > last + 1;) {
            if (items[i].is_let() && needed.count(items[i].name)) {
                Names v = names_of(items[i].value);
                needed.insert(v.vars.begin(), v.vars.end());
            }
        }
        for (size_t i = last + 1; i < items.size(); i++) {
            if (items[i].is_let() && needed.count(items[i].name)) {
                Names v = names_of(items[i].value);
                if (v.loads.count(f) || v.vars.count(f) || v.vars.count(f + ".host") || v.vars.count(f + ".buffer")) {
                    return keep();
                }
                hoisted.push_back(items[i]);
            } else {
                if (items[i].is_let()) {
                    inside_names.insert(items[i].name);
                }
                rest.push_back(items[i]);
            }
        }
        for (const std::string &v : needed) {
            if (inside_names.count(v) || production_lets.count(v)) {
                return keep(); // computed inside, or among the uses but not movable
            }
        }
        for (const Item &h : hoisted) {
            for (const std::string &v : names_of(h.value).vars) {
                if (inside_names.count(v) || v == f || v == f + ".host" || v == f + ".buffer") {
                    return keep();
                }
            }
        }
        std::vector<Item> out(items.begin(), items.begin() + first);
        std::vector<Item> production(items.begin() + first, items.begin() + last + 1);
        out.push_back({"", Expr(), IfThenElse::make(cond, rebuild(production))});
        out.insert(out.end(), rest.begin(), rest.end());
        std::vector<Expr> extents = op->extents;
        bool constant = std::all_of(extents.begin(), extents.end(), [](const Expr &e) { return is_const(e); });
        if (!constant && !extents.empty() && !op->new_expr.defined()) {
            extents[0] = Select::make(cond, extents[0], make_zero(extents[0].type()));
        }
        Stmt s =
            Allocate::make(op->name, op->type, op->memory_type, extents, rebuild(out), op->new_expr, op->free_function);
        for (auto h = hoisted.rbegin(); h != hoisted.rend(); ++h) {
            s = LetStmt::make(h->name, h->value, s);
        }
        return s;
    }

private:
    const Environment &env_;
};

} // namespace

Stmt skip_stages(const Stmt &s, const Environment &env) {
    return SkipStages(env).mutate(s);
}

} // namespace Internal
} // namespace Halide
