// Which reduction domains an update definition uses: RDom::where() refuses
// new predicates on those, as upstream (the update already looped over the
// domain without them).
#ifndef HALIDE_FRONTEND_REDUCTION_DOMAIN_USE_H
#define HALIDE_FRONTEND_REDUCTION_DOMAIN_USE_H

#include "lower/Function.h"

namespace Halide {
namespace Internal {

void mark_reduction_domain_used(const ReductionDomainPtr &r);
bool reduction_domain_used(const ReductionDomainContents *r);

} // namespace Internal
} // namespace Halide

#endif
