// See RDom.h. An RDom's variables are Variables named "<rdom>.x" (".y",
// ".z", ".w", then ".4", ...); the registry maps such a name back to its
// domain, which is how a definition finds the loops it needs.
#include "Halide/RDom.h"

#include <mutex>
#include <sstream>

#include "Halide/Error.h"
#include "Halide/IROperator.h"
#include "Halide/IRPrinter.h"
#include "Halide/IRVisitor.h"
#include "Halide/Param.h"
#include "ReductionDomainUse.h"
#include "lower/Function.h"

namespace Halide {

using namespace Internal;

namespace {

std::string dimension_suffix(size_t i) {
    static const char *names[] = {"x", "y", "z", "w"};
    return i < 4 ? names[i] : std::to_string(i);
}

Expr int32_bound(const Expr &e, const char *what, size_t i) {
    user_assert(e.defined()) << "RDom: the " << what << " of dimension " << i << " is undefined";
    user_assert(e.type().is_int() || e.type().is_uint())
        << "RDom: the " << what << " of dimension " << i << " must be an integer, not " << e.type();
    return e.type() == Int(32) ? e : cast(Int(32), e);
}

} // namespace

RVar::RVar() : name_(fresh_name('r')) {}
RVar::RVar(const std::string &name) : name_(name) {}
RVar::RVar(std::shared_ptr<ReductionDomainContents> domain, int index)
    : domain_(std::move(domain)), index_(index), name_(domain_->domain[(size_t)index].var) {}

const std::string &RVar::name() const {
    return name_;
}
Expr RVar::min() const {
    user_assert(domain_) << "RVar '" << name_ << "' belongs to no RDom: it has no min";
    return domain_->domain[(size_t)index_].min;
}
Expr RVar::extent() const {
    user_assert(domain_) << "RVar '" << name_ << "' belongs to no RDom: it has no extent";
    return domain_->domain[(size_t)index_].extent;
}
RVar::operator Expr() const {
    return Variable::make(Int(32), name_);
}

RDom::RDom(const Region &region, const std::string &name) {
    init(region, name);
}

RDom::RDom(const Buffer<> &buffer) {
    user_assert(buffer.defined()) << "RDom over an undefined Buffer";
    Region region;
    for (int i = 0; i < buffer.dimensions(); i++) {
        region.push_back({buffer.dim(i).min(), buffer.dim(i).extent()});
    }
    init(region, "");
}

RDom::RDom(const OutputImageParam &image) {
    Region region;
    for (int i = 0; i < image.dimensions(); i++) {
        region.push_back({image.dim(i).min(), image.dim(i).extent()});
    }
    init(region, "");
}

RDom::RDom(const ReductionDomain &domain) : contents_(domain.contents()) {
    user_assert(contents_) << "RDom from an undefined ReductionDomain";
    RVar *named[] = {&x, &y, &z, &w};
    for (size_t i = 0; i < contents_->domain.size() && i < 4; i++) {
        *named[i] = RVar(contents_, (int)i);
    }
}

void RDom::init(const Region &region, const std::string &name) {
    user_assert(!region.empty()) << "An RDom needs at least one dimension";
    contents_ = std::make_shared<ReductionDomainContents>();
    contents_->name = name.empty() ? fresh_name('r') : unique_name(name);
    for (size_t i = 0; i < region.size(); i++) {
        contents_->domain.push_back({contents_->name + "." + dimension_suffix(i), int32_bound(region[i].min, "min", i),
                                     int32_bound(region[i].extent, "extent", i)});
    }
    register_reduction_domain(contents_);
    RVar *named[] = {&x, &y, &z, &w};
    for (size_t i = 0; i < region.size() && i < 4; i++) {
        *named[i] = RVar(contents_, (int)i);
    }
}

int RDom::dimensions() const {
    return contents_ ? (int)contents_->domain.size() : 0;
}

const std::string &RDom::name() const {
    user_assert(contents_) << "An undefined RDom has no name";
    return contents_->name;
}

RVar RDom::operator[](int i) const {
    user_assert(contents_) << "RDom: indexing an undefined RDom";
    user_assert(i >= 0 && i < dimensions())
        << "RDom '" << contents_->name << "' has " << dimensions() << " dimensions; there is no dimension " << i;
    return RVar(contents_, i);
}

RDom::operator RVar() const {
    user_assert(dimensions() == 1) << "Can't treat RDom '" << (contents_ ? contents_->name : std::string("<undefined>"))
                                   << "' as an RVar: it has " << dimensions() << " dimensions, not 1";
    return (*this)[0];
}

RDom::operator Expr() const {
    return Expr(RVar(*this));
}

RDom RDom::where(const Expr &predicate) {
    user_assert(contents_) << "RDom::where on an undefined RDom";
    user_assert(predicate.defined() && predicate.type().is_bool())
        << "RDom::where of RDom '" << contents_->name << "' needs a boolean condition";
    // Upstream's words for both refusals.
    if (reduction_domain_used(contents_.get())) {
        std::ostringstream dom;
        dom << "RDom(\n";
        for (const ReductionVariable &r : contents_->domain) {
            dom << "  " << r.var << "(" << r.min << ", " << r.extent << ")\n";
        }
        dom << ")";
        user_error << dom.str()
                   << " cannot be given a new predicate, because it has already been used in the update definition "
                      "of some function.";
    }
    class OtherRVars : public IRVisitor {
    public:
        explicit OtherRVars(const ReductionDomainContents *own) : own_(own) {}
        bool found = false;
        using IRVisitor::visit;
        void visit(const Variable *v) override {
            ReductionDomainPtr r = find_reduction_domain_of(v->name);
            found |= r && r.get() != own_;
        }

    private:
        const ReductionDomainContents *own_;
    } other(contents_.get());
    other.include(predicate);
    user_assert(!other.found) << "An RDom's predicate may only refer to its own RVars,  not the RVars of some other "
                                 "RDom. Cannot set the predicate to : "
                              << predicate;
    contents_->predicates.push_back(predicate);
    mark_everything_changed();
    return *this;
}

namespace Internal {

namespace {

std::mutex used_domains_mutex;
std::vector<std::weak_ptr<ReductionDomainContents>> used_domains; // expired entries are dropped

} // namespace

void mark_reduction_domain_used(const ReductionDomainPtr &r) {
    std::lock_guard<std::mutex> lock(used_domains_mutex);
    for (auto it = used_domains.begin(); it != used_domains.end();) {
        ReductionDomainPtr d = it->lock();
        if (d == r) {
            return;
        }
        it = d ? it + 1 : used_domains.erase(it);
    }
    used_domains.push_back(r);
}

bool reduction_domain_used(const ReductionDomainContents *r) {
    std::lock_guard<std::mutex> lock(used_domains_mutex);
    for (const auto &w : used_domains) {
        ReductionDomainPtr d = w.lock();
        if (d.get() == r) {
            return true;
        }
    }
    return false;
}

namespace {

// Whether `vars` are all "<prefix>.<something>", distinct, with one prefix.
bool usable_names(const std::vector<ReductionVariable> &vars, std::string &prefix) {
    for (size_t i = 0; i < vars.size(); i++) {
        size_t dot = vars[i].var.rfind('.');
        if (dot == std::string::npos || dot == 0) {
            return false;
        }
        std::string p = vars[i].var.substr(0, dot);
        if (i == 0) {
            prefix = p;
        } else if (p != prefix) {
            return false;
        }
        for (size_t j = 0; j < i; j++) {
            if (vars[j].var == vars[i].var) {
                return false;
            }
        }
    }
    return true;
}

} // namespace

ReductionDomain::ReductionDomain(const std::vector<ReductionVariable> &domain) {
    user_assert(!domain.empty()) << "A ReductionDomain needs at least one variable";
    contents_ = std::make_shared<ReductionDomainContents>();
    std::string prefix;
    bool keep = usable_names(domain, prefix);
    contents_->name = keep ? unique_name(prefix) : fresh_name('r');
    keep = keep && contents_->name == prefix; // else the prefix names something else
    for (size_t i = 0; i < domain.size(); i++) {
        std::string var = keep ? domain[i].var : contents_->name + "." + dimension_suffix(i);
        contents_->domain.push_back(
            {var, int32_bound(domain[i].min, "min", i), int32_bound(domain[i].extent, "extent", i)});
    }
    register_reduction_domain(contents_);
}

ReductionDomain::ReductionDomain(const std::vector<ReductionVariable> &domain, const Expr &predicate, bool)
    : ReductionDomain(domain) {
    where(predicate);
}

const std::vector<ReductionVariable> &ReductionDomain::domain() const {
    user_assert(contents_) << "ReductionDomain::domain() of an undefined ReductionDomain";
    return contents_->domain;
}

void ReductionDomain::where(Expr predicate) {
    user_assert(contents_) << "ReductionDomain::where on an undefined ReductionDomain";
    RDom(*this).where(predicate);
}

Expr ReductionDomain::predicate() const {
    Expr all = const_true();
    for (const Expr &p : split_predicate()) {
        all = is_const_one(all) ? p : (all && p);
    }
    return all;
}

std::vector<Expr> ReductionDomain::split_predicate() const {
    user_assert(contents_) << "ReductionDomain::split_predicate() of an undefined ReductionDomain";
    return contents_->predicates;
}

} // namespace Internal

} // namespace Halide
