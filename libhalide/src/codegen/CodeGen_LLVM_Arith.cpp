// Scalar (and lane-wise vector) arithmetic: casts between every pair of
// types, Add/Sub/Mul, the never-trapping Euclidean Div/Mod, Min/Max,
// comparisons and the shifts the bitwise intrinsics need. These are the
// places where Halide's semantics (wrap-around, rounding, NaN) differ from a
// plain LLVM instruction, so each spells out the rule it implements.
#include "codegen/CodeGen_LLVM_Internal.h"

#include <limits>

#include "Halide/Error.h"
#include "Halide/IR.h"

namespace Halide {
namespace Internal {

llvm::Value *CodeGen_LLVM::cast(llvm::Value *v, const Type &from, const Type &to) {
    if (from == to) {
        return v;
    }
    llvm::Type *dst = reg_type(to);
    if (from.is_handle() || to.is_handle()) {
        if (from.is_handle() && to.is_handle()) {
            return v;
        }
        if (to.is_handle()) {
            return b_.CreateIntToPtr(v, dst);
        }
        if (to.is_bool()) {
            return b_.CreateIsNotNull(v);
        }
        return b_.CreatePtrToInt(v, dst);
    }
    if (to.is_bool()) {
        // Upstream's rule: the lowest bit (of the value truncated toward
        // zero, for floats), like any narrowing integer cast.
        if (is_floating(from)) {
            v = b_.CreateFPToSI(v, reg_type(Int(64, from.lanes())));
        }
        return b_.CreateTrunc(v, dst);
    }
    if (is_floating(from) && is_floating(to)) {
        return b_.CreateFPCast(v, dst);
    }
    if (is_floating(from)) {
        return to.is_int() ? b_.CreateFPToSI(v, dst) : b_.CreateFPToUI(v, dst);
    }
    if (is_floating(to)) {
        return from.is_int() ? b_.CreateSIToFP(v, dst) : b_.CreateUIToFP(v, dst);
    }
    // Integer to integer: extend by the source's signedness, or truncate.
    return b_.CreateIntCast(v, dst, from.is_int());
}

llvm::Value *CodeGen_LLVM::shift(bool left, const Type &t, llvm::Value *a, bool signed_amount, llvm::Value *b) {
    llvm::Type *ty = a->getType();
    b = b_.CreateIntCast(b, ty, signed_amount);
    if (!signed_amount) {
        return shift_by_magnitude(left, t, a, b);
    }
    llvm::Value *negative = b_.CreateICmpSLT(b, int_const(ty, 0));
    // -INT_MIN wraps to itself, which read unsigned is past the width.
    llvm::Value *magnitude = b_.CreateSelect(negative, b_.CreateNeg(b), b);
    llvm::Value *forward = shift_by_magnitude(left, t, a, magnitude);
    llvm::Value *backward = shift_by_magnitude(!left, t, a, magnitude);
    return b_.CreateSelect(negative, backward, forward);
}

llvm::Value *CodeGen_LLVM::shift_by_magnitude(bool left, const Type &t, llvm::Value *a, llvm::Value *amount) {
    llvm::Type *ty = a->getType();
    llvm::Value *max_shift = int_const(ty, t.bits() - 1);
    llvm::Value *too_big = b_.CreateICmpUGT(amount, max_shift);
    llvm::Value *clamped = b_.CreateSelect(too_big, max_shift, amount);
    if (!left && t.is_int()) {
        return b_.CreateAShr(a, clamped);
    }
    llvm::Value *r = left ? b_.CreateShl(a, clamped) : b_.CreateLShr(a, clamped);
    return b_.CreateSelect(too_big, int_const(ty, 0), r);
}

llvm::Value *CodeGen_LLVM::arith(const Expr &ea, const Expr &eb, llvm::Instruction::BinaryOps int_op) {
    llvm::Value *a = codegen(ea);
    llvm::Value *b = codegen(eb);
    if (is_floating(ea.type())) {
        switch (int_op) {
        case llvm::Instruction::Add: return b_.CreateFAdd(a, b);
        case llvm::Instruction::Sub: return b_.CreateFSub(a, b);
        default: return b_.CreateFMul(a, b);
        }
    }
    return b_.CreateBinOp(int_op, a, b);
}

llvm::Value *CodeGen_LLVM::div_mod(const Expr &ea, const Expr &eb, bool is_div) {
    Type t = ea.type();
    const Ramp *ramp = ea.as<Ramp>();
    const Broadcast *by = eb.as<Broadcast>();
    const IntImm *stride = ramp ? ramp->stride.as<IntImm>() : nullptr;
    if (stride && stride->value > 0 && by && !by->value.as<IntImm>() && t.is_int() && t.bits() == 32) {
        return div_mod_ramp(ea, by->value, stride->value, is_div);
    }
    llvm::Value *a = codegen(ea);
    llvm::Value *b = codegen(eb);
    if (is_floating(t)) {
        llvm::Value *q = b_.CreateFDiv(a, b);
        if (is_div) {
            return q;
        }
        llvm::Value *fl = b_.CreateUnaryIntrinsic(llvm::Intrinsic::floor, q);
        return b_.CreateFSub(a, b_.CreateFMul(b, fl));
    }
    if (t.is_vector() && t.bits() <= 32 && !llvm::isa<llvm::Constant>(b)) {
        return div_mod_through_float(a, b, t, is_div);
    }
    llvm::Type *ty = a->getType();
    llvm::Value *zero = int_const(ty, 0);
    llvm::Value *one = int_const(ty, 1);
    llvm::Value *b_zero = b_.CreateICmpEQ(b, zero);
    if (t.is_uint()) {
        llvm::Value *bs = b_.CreateSelect(b_zero, one, b);
        if (is_div) {
            return b_.CreateSelect(b_zero, zero, b_.CreateUDiv(a, bs));
        }
        return b_.CreateURem(a, bs); // a % 1 == 0 covers b == 0
    }
    llvm::Value *minus_one = int_const(ty, -1);
    llvm::Value *b_neg1 = b_.CreateICmpEQ(b, minus_one);
    llvm::Value *bs = b_.CreateSelect(b_.CreateOr(b_zero, b_neg1), one, b);
    llvm::Value *q = b_.CreateSDiv(a, bs);
    llvm::Value *r = b_.CreateSRem(a, bs);
    // srem takes the sign of a; move a negative remainder into [0, |b|).
    llvm::Value *r_neg = b_.CreateICmpSLT(r, zero);
    llvm::Value *b_pos = b_.CreateICmpSGT(bs, zero);
    if (is_div) {
        llvm::Value *adj = b_.CreateSelect(b_pos, minus_one, one);
        llvm::Value *qe = b_.CreateAdd(q, b_.CreateSelect(r_neg, adj, zero));
        llvm::Value *neg_a = b_.CreateSub(zero, a);
        return b_.CreateSelect(b_zero, zero, b_.CreateSelect(b_neg1, neg_a, qe));
    }
    llvm::Value *abs_b = b_.CreateSelect(b_pos, bs, b_.CreateSub(zero, bs));
    return b_.CreateAdd(r, b_.CreateSelect(r_neg, abs_b, zero));
}

// LLVM divides a vector by a divisor that is not a constant one lane at a
// time (an integer division each, 16 of them for a mirrored boundary
// condition's % in a 16-lane load). Through floating point it is a few
// vector instructions, and exact: with |a| < 2^p (p = 53 for double, 24 for
// float; a has at most 32 bits, or 16 for float) a quotient that is not an
// integer is at least 1/|b| from the nearest one, more than the rounding
// error of a / b (at most |a / b| 2^-p), so rounding it towards -inf (b > 0)
// or +inf (b < 0) gives the Euclidean quotient.
llvm::Value *CodeGen_LLVM::div_mod_through_float(llvm::Value *a, llvm::Value *b, const Type &t, bool is_div) {
    llvm::Type *ty = a->getType();
    llvm::Type *fty = reg_type(Float(t.bits() <= 16 ? 32 : 64, t.lanes()));
    bool is_signed = t.is_int();
    llvm::Value *fa = is_signed ? b_.CreateSIToFP(a, fty) : b_.CreateUIToFP(a, fty);
    llvm::Value *fb = is_signed ? b_.CreateSIToFP(b, fty) : b_.CreateUIToFP(b, fty);
    llvm::Value *fq = b_.CreateFDiv(fa, fb);
    llvm::Value *zero = int_const(ty, 0);
    llvm::Value *b_zero = b_.CreateICmpEQ(b, zero);
    llvm::Value *q = nullptr;
    llvm::Value *special = b_zero; // lanes whose result is fixed: b == 0 (and b == -1)
    if (is_signed) {
        llvm::Value *b_pos = b_.CreateICmpSGT(b, zero);
        fq = b_.CreateSelect(b_pos, b_.CreateUnaryIntrinsic(llvm::Intrinsic::floor, fq),
                             b_.CreateUnaryIntrinsic(llvm::Intrinsic::ceil, fq));
        // Out of range (b == 0, or INT_MIN / -1) the conversion is poison:
        // frozen, and those lanes are replaced below.
        q = b_.CreateFreeze(b_.CreateFPToSI(fq, ty));
    } else {
        q = b_.CreateFreeze(b_.CreateFPToUI(fq, ty)); // fq >= 0: truncation is the floor
    }
    llvm::Value *r = b_.CreateSub(a, b_.CreateMul(q, b));
    if (is_signed) {
        llvm::Value *b_neg1 = b_.CreateICmpEQ(b, int_const(ty, -1));
        q = b_.CreateSelect(b_neg1, b_.CreateSub(zero, a), q); // wraps for INT_MIN
        special = b_.CreateOr(b_zero, b_neg1);                 // a % -1 == 0
    }
    return b_.CreateSelect(is_div ? b_zero : special, zero, is_div ? q : r);
}

// A ramp divided by a broadcast value m (a mirrored boundary condition's
// (ramp - min) % (2 * (extent - 1))). When m exceeds the span of the ramp,
// its lanes pass a multiple of m at most once: one scalar division of the
// base gives q0 and r0, lane i's remainder is r0 + i * stride less m if
// that reaches m, and its quotient q0 plus one there. Otherwise (m small,
// zero or negative) the general vector division.
llvm::Value *CodeGen_LLVM::div_mod_ramp(const Expr &a, const Expr &m, int64_t stride, bool is_div) {
    const Ramp *ramp = a.as<Ramp>();
    Type t = a.type();
    int64_t span = stride * (ramp->lanes - 1);
    if (span >= std::numeric_limits<int32_t>::max() / 2) {
        return div_mod_through_float(codegen(a), codegen(Broadcast::make(m, ramp->lanes)), t, is_div);
    }
    llvm::Value *ms = codegen(m);
    llvm::Type *st = ms->getType();
    // span < m <= INT32_MAX - span: r0 + span < 2m does not overflow.
    llvm::Value *fits = b_.CreateAnd(b_.CreateICmpSGT(ms, int_const(st, span)),
                                     b_.CreateICmpSLE(ms, int_const(st, std::numeric_limits<int32_t>::max() - span)));
    llvm::Value *mv = b_.CreateVectorSplat(ramp->lanes, ms);
    return branch_value(
        fits, true, "ramp_divmod_wraps_once",
        [&] {
            llvm::Value *r0 = codegen(Mod::make(ramp->base, m));
            std::vector<llvm::Constant *> steps;
            for (int i = 0; i < ramp->lanes; i++) {
                steps.push_back(llvm::ConstantInt::get(st, i * stride));
            }
            llvm::Value *r = b_.CreateAdd(b_.CreateVectorSplat(ramp->lanes, r0), llvm::ConstantVector::get(steps));
            llvm::Value *wraps = b_.CreateICmpSGE(r, mv);
            if (is_div) {
                llvm::Value *q0 = b_.CreateVectorSplat(ramp->lanes, codegen(Div::make(ramp->base, m)));
                return b_.CreateAdd(q0, b_.CreateZExt(wraps, r->getType()));
            }
            return b_.CreateSub(r, b_.CreateSelect(wraps, mv, int_const(r->getType(), 0)));
        },
        [&] { return div_mod_through_float(codegen(a), mv, t, is_div); });
}

llvm::Value *CodeGen_LLVM::min_max(const Expr &ea, const Expr &eb, bool is_min) {
    Type t = ea.type();
    llvm::Value *a = codegen(ea);
    llvm::Value *b = codegen(eb);
    if (is_floating(t)) {
        llvm::Value *c = is_min ? b_.CreateFCmpOLT(a, b) : b_.CreateFCmpOGT(a, b);
        return b_.CreateSelect(c, a, b);
    }
    if (t.is_handle()) {
        llvm::Value *c = is_min ? b_.CreateICmpULT(a, b) : b_.CreateICmpUGT(a, b);
        return b_.CreateSelect(c, a, b);
    }
    llvm::Intrinsic::ID id;
    if (t.is_int()) {
        id = is_min ? llvm::Intrinsic::smin : llvm::Intrinsic::smax;
    } else {
        id = is_min ? llvm::Intrinsic::umin : llvm::Intrinsic::umax;
    }
    return b_.CreateBinaryIntrinsic(id, a, b);
}

llvm::Value *CodeGen_LLVM::compare(const Expr &ea, const Expr &eb, IRNodeType kind) {
    Type t = ea.type();
    llvm::Value *a = codegen(ea);
    llvm::Value *b = codegen(eb);
    using P = llvm::CmpInst::Predicate;
    P p;
    if (is_floating(t)) {
        switch (kind) {
        case IRNodeType::EQ: p = P::FCMP_OEQ; break;
        case IRNodeType::NE: p = P::FCMP_UNE; break; // NaN != x holds
        case IRNodeType::LT: p = P::FCMP_OLT; break;
        case IRNodeType::LE: p = P::FCMP_OLE; break;
        case IRNodeType::GT: p = P::FCMP_OGT; break;
        default: p = P::FCMP_OGE; break;
        }
        return b_.CreateFCmp(p, a, b);
    }
    bool s = t.is_int();
    switch (kind) {
    case IRNodeType::EQ: p = P::ICMP_EQ; break;
    case IRNodeType::NE: p = P::ICMP_NE; break;
    case IRNodeType::LT: p = s ? P::ICMP_SLT : P::ICMP_ULT; break;
    case IRNodeType::LE: p = s ? P::ICMP_SLE : P::ICMP_ULE; break;
    case IRNodeType::GT: p = s ? P::ICMP_SGT : P::ICMP_UGT; break;
    default: p = s ? P::ICMP_SGE : P::ICMP_UGE; break;
    }
    return b_.CreateICmp(p, a, b);
}
} // namespace Internal
} // namespace Halide
