// See Substitute.h.
#include "ir/Substitute.h"

#include <set>

#include "Halide/IRMutator.h"

namespace Halide {
namespace Internal {
namespace {

class Substitute : public IRMutator {
public:
    explicit Substitute(const std::map<std::string, Expr> &r) : replacements_(r) {}

    using IRMutator::visit;

    Expr visit(const Variable *op) override {
        if (hidden_.count(op->name) == 0) {
            auto it = replacements_.find(op->name);
            if (it != replacements_.end()) {
                return it->second;
            }
        }
        return IRMutator::visit(op);
    }

    Expr visit(const Let *op) override {
        Expr value = mutate(op->value);
        hidden_.insert(op->name);
        Expr body = mutate(op->body);
        hidden_.erase(hidden_.find(op->name));
        return Let::make(op->name, value, body);
    }

    Stmt visit(const LetStmt *op) override {
        Expr value = mutate(op->value);
        hidden_.insert(op->name);
        Stmt body = mutate(op->body);
        hidden_.erase(hidden_.find(op->name));
        return LetStmt::make(op->name, value, body);
    }

    Stmt visit(const For *op) override {
        Expr min = mutate(op->min), extent = mutate(op->extent);
        hidden_.insert(op->name);
        Stmt body = mutate(op->body);
        hidden_.erase(hidden_.find(op->name));
        return For::make(op->name, min, extent, op->for_type, body);
    }

private:
    const std::map<std::string, Expr> &replacements_;
    std::multiset<std::string> hidden_;
};

} // namespace

Expr substitute(const std::map<std::string, Expr> &replacements, const Expr &e) {
    return replacements.empty() ? e : Substitute(replacements).mutate(e);
}

Stmt substitute(const std::map<std::string, Expr> &replacements, const Stmt &s) {
    return replacements.empty() ? s : Substitute(replacements).mutate(s);
}

} // namespace Internal
} // namespace Halide
