// Halide::Internal::ReductionVariable and ReductionDomain: the loops of a
// reduction domain, as a handle an RDom can be made from (RDom(domain)) and
// gives back (RDom::domain()), with upstream's names.
#ifndef HALIDE_REDUCTION_H
#define HALIDE_REDUCTION_H

#include <memory>
#include <string>
#include <vector>

#include "Halide/Expr.h"

namespace Halide {
namespace Internal {

// One loop of a reduction domain: `var` runs over [min, min + extent).
struct ReductionVariable {
    std::string var; // unique name, e.g. "r0.x"
    Expr min, extent;
};

struct ReductionDomainContents;

// A shared handle on a reduction domain's loops and predicates. Copies
// refer to the same domain (where() on one is seen by all).
class ReductionDomain {
public:
    ReductionDomain() = default;
    // The handle of an existing domain (an RDom's).
    ReductionDomain(std::shared_ptr<ReductionDomainContents> contents) : contents_(std::move(contents)) {}
    // A new domain over these loops, innermost first. The variables keep
    // their names when they are "<prefix>.<suffix>" with one prefix that
    // names nothing else yet; otherwise the domain gets a fresh name and its
    // variables "<name>.x", ".y", ".z", ".w", ".4"...
    explicit ReductionDomain(const std::vector<ReductionVariable> &domain);
    // ...restricted to the points where `predicate` holds. `frozen` is
    // accepted for upstream's signature; predicates may be added until the
    // domain is used.
    ReductionDomain(const std::vector<ReductionVariable> &domain, const Expr &predicate, bool frozen = false);

    bool defined() const { return contents_ != nullptr; }
    bool same_as(const ReductionDomain &other) const { return contents_ == other.contents_; }
    const std::vector<ReductionVariable> &domain() const;
    // Adds a predicate (combined with the others by &&).
    void where(Expr predicate);
    // The predicates combined with &&; true when there are none.
    Expr predicate() const;
    // Each predicate on its own.
    std::vector<Expr> split_predicate() const;

    const std::shared_ptr<ReductionDomainContents> &contents() const { return contents_; }
    ReductionDomainContents *operator->() const { return contents_.get(); }
    operator const std::shared_ptr<ReductionDomainContents> &() const { return contents_; }

private:
    std::shared_ptr<ReductionDomainContents> contents_;
};

} // namespace Internal
} // namespace Halide

#endif
