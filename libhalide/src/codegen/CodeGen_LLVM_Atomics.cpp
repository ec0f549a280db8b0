// Stores inside an Atomic node (see IR.h): the read-modify-writes of an
// atomic() update. `f[i] = f[i] op x` with op one LLVM has an atomicrmw for
// (integer add, sub, min, max, and, or, xor) becomes that instruction; any
// other update (floats, bools, anything else) becomes a compare-and-swap
// loop that recomputes the value from the element's current contents until
// no other thread changed it in between. A vector store is done one lane
// after the other, so lanes writing the same element add up too.
#include "codegen/CodeGen_LLVM_Internal.h"

#include <algorithm>
#include <optional>

#include "Halide/IREquality.h"
#include "Halide/IRMutator.h"
#include "Halide/IRVisitor.h"

namespace Halide {
namespace Internal {
namespace {

// The name the element's current value takes in a compare-and-swap loop.
constexpr const char *kOldValue = "atomic.old";

bool is_site(const Expr &e, const std::string &name, const Expr &index) {
    const Load *l = e.as<Load>();
    return l && l->name == name && equal(l->index, index);
}

class LoadsOf : public IRVisitor {
public:
    explicit LoadsOf(const std::string &name) : name_(name) {}
    bool found = false;
    using IRVisitor::visit;
    void visit(const Load *op) override {
        found = found || op->name == name_;
        IRVisitor::visit(op);
    }

private:
    const std::string &name_;
};

bool reads(const Expr &e, const std::string &name) {
    LoadsOf l(name);
    l.include(e);
    return l.found;
}

// Loads of the element being updated replaced by kOldValue.
class ReplaceSite : public IRMutator {
public:
    ReplaceSite(const std::string &name, const Expr &index) : name_(name), index_(index) {}
    using IRMutator::visit;
    Expr visit(const Load *op) override {
        if (op->name == name_ && equal(op->index, index_)) {
            return Variable::make(op->type, kOldValue);
        }
        return IRMutator::visit(op);
    }

private:
    const std::string &name_;
    const Expr &index_;
};

struct RMW {
    llvm::AtomicRMWInst::BinOp op;
    Expr operand;
};

// `value` as (element op operand), for the ops atomicrmw has on integers.
std::optional<RMW> as_rmw(const Expr &value, const std::string &name, const Expr &index) {
    Type t = value.type();
    if (!(t.is_int() || t.is_uint()) || t.is_bool()) {
        return std::nullopt;
    }
    using B = llvm::AtomicRMWInst::BinOp;
    auto commutative = [&](const Expr &a, const Expr &b, B op) -> std::optional<RMW> {
        if (is_site(a, name, index) && !reads(b, name)) {
            return RMW{op, b};
        }
        if (is_site(b, name, index) && !reads(a, name)) {
            return RMW{op, a};
        }
        return std::nullopt;
    };
    if (const Add *op = value.as<Add>()) {
        return commutative(op->a, op->b, B::Add);
    }
    if (const Sub *op = value.as<Sub>(); op && is_site(op->a, name, index) && !reads(op->b, name)) {
        return RMW{B::Sub, op->b};
    }
    if (const Min *op = value.as<Min>()) {
        return commutative(op->a, op->b, t.is_int() ? B::Min : B::UMin);
    }
    if (const Max *op = value.as<Max>()) {
        return commutative(op->a, op->b, t.is_int() ? B::Max : B::UMax);
    }
    if (const Call *op = value.as<Call>(); op && op->call_type == Call::Intrinsic && op->args.size() == 2) {
        if (op->name == "bitwise_and") {
            return commutative(op->args[0], op->args[1], B::And);
        }
        if (op->name == "bitwise_or") {
            return commutative(op->args[0], op->args[1], B::Or);
        }
        if (op->name == "bitwise_xor") {
            return commutative(op->args[0], op->args[1], B::Xor);
        }
    }
    return std::nullopt;
}

} // namespace

void CodeGen_LLVM::atomic(const Atomic *op) {
    atomic_producers_.push_back(op->producer_name);
    codegen(op->body);
    atomic_producers_.pop_back();
}

bool CodeGen_LLVM::is_atomic_store(const Store *op) const {
    return std::find(atomic_producers_.begin(), atomic_producers_.end(), op->name) != atomic_producers_.end();
}

void CodeGen_LLVM::atomic_store(const Store *op) {
    Type t = op->value.type();
    llvm::Type *elem = mem_type(t.element_of());
    llvm::Align align(t.bytes());
    const auto ordering = llvm::AtomicOrdering::Monotonic;
    auto lane_address = [&](llvm::Value *ptrs, int i) {
        return t.is_scalar() ? ptrs : b_.CreateExtractElement(ptrs, (uint64_t)i);
    };
    llvm::Value *ptrs =
        t.is_scalar() ? element_address(op->name, op->index, elem) : lane_addresses(op->name, op->index, elem);

    if (std::optional<RMW> rmw = as_rmw(op->value, op->name, op->index)) {
        llvm::Value *x = codegen(rmw->operand);
        for (int i = 0; i < t.lanes(); i++) {
            llvm::Value *xi = t.is_scalar() ? x : b_.CreateExtractElement(x, (uint64_t)i);
            b_.CreateAtomicRMW(rmw->op, lane_address(ptrs, i), xi, align, ordering)
                ->setMetadata(llvm::LLVMContext::MD_tbaa, buffer_tbaa(op->name));
        }
        return;
    }

    // Compare-and-swap on the element's bits (an integer as wide as it).
    Expr value = ReplaceSite(op->name, op->index).mutate(op->value);
    llvm::Type *bits = llvm::IntegerType::get(ctx_, (unsigned)t.bits() < 8 ? 8 : (unsigned)t.bits());
    for (int i = 0; i < t.lanes(); i++) {
        llvm::Value *addr = lane_address(ptrs, i);
        llvm::LoadInst *first = b_.CreateAlignedLoad(bits, addr, align);
        first->setAtomic(ordering);
        llvm::BasicBlock *before = b_.GetInsertBlock();
        llvm::BasicBlock *retry = new_block("atomic_retry");
        llvm::BasicBlock *done = new_block("atomic_done");
        b_.CreateBr(retry);
        b_.SetInsertPoint(retry);
        llvm::PHINode *old_bits = b_.CreatePHI(bits, 2);
        old_bits->addIncoming(first, before);
        llvm::Value *old = from_memory(b_.CreateBitCast(old_bits, elem), t.element_of());
        if (!t.is_scalar()) {
            old = b_.CreateVectorSplat(t.lanes(), old); // only lane i of the result is used
        }
        push(kOldValue, old);
        llvm::Value *updated = codegen(value);
        pop(kOldValue);
        if (!t.is_scalar()) {
            updated = b_.CreateExtractElement(updated, (uint64_t)i);
        }
        llvm::Value *new_bits = b_.CreateBitCast(to_memory(updated, t.element_of()), bits);
        llvm::AtomicCmpXchgInst *cas = b_.CreateAtomicCmpXchg(addr, old_bits, new_bits, align, ordering, ordering);
        old_bits->addIncoming(b_.CreateExtractValue(cas, 0), b_.GetInsertBlock());
        b_.CreateCondBr(b_.CreateExtractValue(cas, 1), done, retry);
        b_.SetInsertPoint(done);
    }
}

} // namespace Internal
} // namespace Halide
