// See UsesVars.h.
#include "ir/UsesVars.h"

#include "Halide/IRVisitor.h"

namespace Halide {
namespace Internal {
namespace {

// Stops at the first wanted Variable and visits each node once.
class FindVar : public IRVisitor {
public:
    explicit FindVar(const std::function<bool(const std::string &)> &w) : wanted_(w) {}
    bool found = false;
    using IRVisitor::visit;
#define HALIDE_IR_NODE(N)                                                                                              \
    void visit(const N *op) override {                                                                                 \
        once(op);                                                                                                      \
    }
#include "Halide/IRNodes.def"
#undef HALIDE_IR_NODE

private:
    template <typename Node> void once(const Node *op) {
        if (!found && seen_.insert(op).second) {
            IRVisitor::visit(op);
        }
    }
    void once(const Variable *op) {
        if (!found && seen_.insert(op).second) {
            found = wanted_(op->name);
        }
    }
    const std::function<bool(const std::string &)> &wanted_;
    std::set<const void *> seen_;
};

} // namespace

bool expr_uses_var_if(const Expr &e, const std::function<bool(const std::string &)> &wanted) {
    FindVar finder(wanted);
    finder.include(e);
    return finder.found;
}

bool expr_uses_any_var(const Expr &e, const std::set<std::string> &names) {
    return !names.empty() && expr_uses_var_if(e, [&](const std::string &n) { return names.count(n) != 0; });
}

bool exprs_call_func(const std::vector<Expr> &exprs, const std::string &name) {
    class Finder : public IRVisitor {
    public:
        explicit Finder(const std::string &name) : name_(name) {}
        bool found = false;
        using IRVisitor::visit;
        void visit(const Call *op) override {
            found = found || (op->call_type == Call::Halide && op->name == name_);
            IRVisitor::visit(op);
        }

    private:
        const std::string &name_;
    } finder(name);
    for (const Expr &e : exprs) {
        finder.include(e);
    }
    return finder.found;
}

bool expr_reads_memory(const Expr &e) {
    class Finder : public IRVisitor {
    public:
        bool found = false;
        using IRVisitor::visit;
        void visit(const Load *) override { found = true; }
    } finder;
    finder.include(e);
    return finder.found;
}

} // namespace Internal
} // namespace Halide
