// See Halide/ScatterGather.h and ScatterGather.h.
#include "ScatterGather.h"

#include "Halide/Error.h"
#include "Halide/IR.h"
#include "Halide/IRVisitor.h"
#include "Halide/ScatterGather.h"
#include "ir/IntrinsicNames.h"

namespace Halide {
namespace Internal {

namespace {

Expr make_scatter_gather(const char *what, const std::vector<Expr> &args) {
    user_assert(!args.empty()) << what << "() needs at least one value";
    for (const Expr &a : args) {
        user_assert(a.defined()) << what << "() of an undefined expression";
        user_assert(a.type() == args[0].type())
            << what << "() of values of different types (" << type_to_string(args[0].type()) << " and "
            << type_to_string(a.type()) << "): cast them to one type";
    }
    return Call::make(args[0].type(), kScatterGatherIntrinsic, args, Call::Intrinsic);
}

class PacketSizes : public IRVisitor {
public:
    explicit PacketSizes(const std::string &func) : func_(func) {}
    int size = 0;

    using IRVisitor::visit;
    void visit(const Call *op) override {
        if (op->call_type != Call::Intrinsic || op->name != kScatterGatherIntrinsic) {
            IRVisitor::visit(op);
            return;
        }
        user_assert(!inside_) << "Can't nest an expression tuple inside another in definition of " << func_;
        int n = (int)op->args.size();
        user_assert(size == 0 || size == n)
            << "Expression tuples of mismatched sizes used in definition of " << func_ << ": " << n << " vs " << size;
        size = n;
        inside_ = true;
        IRVisitor::visit(op);
        inside_ = false;
    }

private:
    const std::string &func_;
    bool inside_ = false;
};

} // namespace

void check_scatter_gather(const std::string &func, const std::vector<Expr> &args, const std::vector<Expr> &values) {
    PacketSizes sizes(func);
    for (const Expr &a : args) {
        sizes.include(a);
    }
    for (const Expr &v : values) {
        sizes.include(v);
    }
}

} // namespace Internal

Expr scatter(const std::vector<Expr> &args) {
    return Internal::make_scatter_gather("scatter", args);
}

Expr gather(const std::vector<Expr> &args) {
    return Internal::make_scatter_gather("gather", args);
}

} // namespace Halide
