// Halide::RDom and Halide::RVar: reduction domains, the loops an update
// definition iterates over (f(r.x) += g(r.x), a histogram, a scan).
#ifndef HALIDE_RDOM_H
#define HALIDE_RDOM_H

#include <memory>
#include <string>
#include <vector>

#include "Halide/Argument.h"
#include "Halide/Buffer.h"
#include "Halide/Expr.h"
#include "Halide/Reduction.h"

namespace Halide {

class OutputImageParam;

// One variable of an RDom: it runs over [min(), min() + extent()).
class RVar {
public:
    RVar(); // a one-dimensional RDom of its own is made on first use
    explicit RVar(const std::string &name);
    RVar(std::shared_ptr<Internal::ReductionDomainContents> domain, int index);

    const std::string &name() const;
    Expr min() const;
    Expr extent() const;
    operator Expr() const;

    // The domain this variable belongs to (null for a named placeholder).
    const std::shared_ptr<Internal::ReductionDomainContents> &domain() const { return domain_; }

private:
    std::shared_ptr<Internal::ReductionDomainContents> domain_;
    int index_ = 0;
    std::string name_;
};

// A multi-dimensional reduction domain: loops over a box, innermost (x)
// first, optionally restricted by where() predicates.
class RDom {
public:
    RDom() = default;
    // From (min, extent) pairs, one per dimension.
    explicit RDom(const Region &region, const std::string &name = "");
    // From min0, extent0, min1, extent1, ... and optionally a name last.
    template <typename... Args> RDom(const Expr &min, const Expr &extent, const Args &...rest) {
        Region region{Range{min, extent}};
        std::string name;
        collect(region, name, rest...);
        init(region, name);
    }
    // Over every point of a buffer or an image parameter.
    explicit RDom(const Buffer<> &buffer);
    template <typename T, int D> explicit RDom(const Buffer<T, D> &buffer) : RDom(Buffer<>(buffer)) {}
    explicit RDom(const OutputImageParam &image);
    // The RDom of an existing reduction domain (another RDom's domain()).
    RDom(const Internal::ReductionDomain &domain);

    bool defined() const { return contents_ != nullptr; }
    int dimensions() const;
    RVar operator[](int i) const;
    operator RVar() const; // a one-dimensional RDom is its variable
    operator Expr() const;
    // Restricts the domain to the points where `predicate` holds; several
    // where() calls combine with &&. Returns this RDom.
    RDom where(const Expr &predicate);

    const std::string &name() const;
    bool same_as(const RDom &other) const { return contents_ == other.contents_; }
    Internal::ReductionDomain domain() const { return Internal::ReductionDomain(contents_); }

    RVar x, y, z, w;

private:
    static void collect(Region &, std::string &) {}
    static void collect(Region &, std::string &name, const std::string &n) { name = n; }
    static void collect(Region &, std::string &name, const char *n) { name = n; }
    template <typename... Args>
    static void collect(Region &region, std::string &name, const Expr &min, const Expr &extent, const Args &...rest) {
        region.push_back(Range{min, extent});
        collect(region, name, rest...);
    }
    void init(const Region &region, const std::string &name);
    std::shared_ptr<Internal::ReductionDomainContents> contents_;
};

} // namespace Halide

#endif
