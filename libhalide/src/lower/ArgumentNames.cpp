// See Passes.h. Param and ImageParam names are made unique within the
// process (a second live Param "p" is "p$1" in the IR), but the compiled
// function is called with the names the user gave, as upstream's is: its
// argument names, metadata, C header and error messages say "p". Each input
// argument takes its given name unless that name is already used by
// something else in the pipeline (two Params both given "p"), in which case
// it keeps its unique one.
#include <set>

#include "Halide/IRMutator.h"
#include "Halide/IRVisitor.h"
#include "lower/Passes.h"

namespace Halide {
namespace Internal {
namespace {

bool names_or_prefixes(const std::string &base, const std::string &name) {
    return name == base ||
           (name.size() > base.size() && name.compare(0, base.size(), base) == 0 && name[base.size()] == '.');
}

// Every name the statement binds or refers to.
class CollectNames : public IRVisitor {
public:
    std::set<std::string> names;
    using IRVisitor::visit;
    void visit(const Variable *op) override { names.insert(op->name); }
    void visit(const Call *op) override {
        names.insert(op->name);
        IRVisitor::visit(op);
    }
    void visit(const Let *op) override {
        names.insert(op->name);
        IRVisitor::visit(op);
    }
    void visit(const LetStmt *op) override {
        names.insert(op->name);
        IRVisitor::visit(op);
    }
    void visit(const For *op) override {
        names.insert(op->name);
        IRVisitor::visit(op);
    }
    void visit(const Provide *op) override {
        names.insert(op->name);
        IRVisitor::visit(op);
    }
    void visit(const Realize *op) override {
        names.insert(op->name);
        IRVisitor::visit(op);
    }
};

// Renames `from` (and its fields, "from.min.0"...) to `to` in the Variables,
// Lets and input-buffer Calls that refer to an argument.
class RenameArgument : public IRMutator {
public:
    RenameArgument(const std::string &from, const std::string &to) : from_(from), to_(to) {}
    using IRMutator::visit;
    Expr visit(const Variable *op) override {
        return names_or_prefixes(from_, op->name) ? Variable::make(op->type, renamed(op->name)) : IRMutator::visit(op);
    }
    Expr visit(const Call *op) override {
        Expr e = IRMutator::visit(op);
        const Call *c = e.as<Call>();
        if (c->call_type != Call::Image || c->name != from_) {
            return e;
        }
        return Call::make(c->type, to_, c->args, c->call_type, c->value_index, c->callee);
    }
    Expr visit(const Let *op) override {
        Expr e = IRMutator::visit(op);
        const Let *l = e.as<Let>();
        return names_or_prefixes(from_, l->name) ? Let::make(renamed(l->name), l->value, l->body) : e;
    }
    Stmt visit(const LetStmt *op) override {
        Stmt s = IRMutator::visit(op);
        const LetStmt *l = s.as<LetStmt>();
        return names_or_prefixes(from_, l->name) ? LetStmt::make(renamed(l->name), l->value, l->body) : s;
    }

private:
    std::string renamed(const std::string &name) const { return to_ + name.substr(from_.size()); }
    std::string from_, to_;
};

} // namespace

Stmt use_given_argument_names(const Stmt &s, LoweredPipeline &p) {
    CollectNames used;
    used.include(s);
    for (const LoweredArgument &a : p.func.args) {
        used.names.insert(a.name);
    }
    Stmt result = s;
    for (size_t i = 0; i < p.func.args.size(); i++) {
        const ArgumentSource &src = p.sources[i];
        const std::string &given = src.param ? src.param->user_name : src.buffer ? src.buffer->user_name : "";
        LoweredArgument &a = p.func.args[i];
        if (given.empty() || given == a.name) {
            continue;
        }
        bool taken = false;
        for (const std::string &n : used.names) {
            taken = taken || (names_or_prefixes(given, n) && !names_or_prefixes(a.name, n));
        }
        if (taken) {
            continue;
        }
        result = RenameArgument(a.name, given).mutate(result);
        used.names.insert(given);
        a.name = given;
    }
    return result;
}

} // namespace Internal
} // namespace Halide
