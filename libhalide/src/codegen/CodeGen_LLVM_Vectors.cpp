// Memory accesses and vector values: Load and Store (scalar, dense vector,
// broadcast, clamped ramp, gather and scatter), Ramp, and the per-buffer
// TBAA tags that tell LLVM distinct buffers never alias. The load shape is
// chosen from the index expression, so the index analysis (dense ramps,
// clamped ramps) lives here too.
#include "codegen/CodeGen_LLVM_Internal.h"

#include "codegen/BackendCommon.h"

#include <functional>
#include <map>
#include <set>
#include <string>
#include <utility>

#include "Halide/Error.h"
#include "Halide/IR.h"
#include "Halide/IRVisitor.h"

namespace Halide {
namespace Internal {

namespace {

// a + sign * b for ramps and broadcasts (strides folded when constant).
Expr ramp_sum(const Expr &a, const Expr &b, int sign) {
    auto parts = [](const Expr &e, Expr &base, Expr &stride) {
        if (const Ramp *r = e.as<Ramp>()) {
            base = r->base;
            stride = r->stride;
        } else {
            base = e.as<Broadcast>()->value;
            stride = IntImm::make(base.type(), 0);
        }
    };
    Expr ab, as, bb, bs;
    parts(a, ab, as);
    parts(b, bb, bs);
    const IntImm *ia = as.as<IntImm>(), *ib = bs.as<IntImm>();
    if (!ia || !ib) {
        return Expr();
    }
    Expr base = sign > 0 ? Add::make(ab, bb) : Sub::make(ab, bb);
    int64_t stride = ia->value + sign * ib->value;
    int lanes = a.type().lanes();
    if (stride == 0) {
        return Broadcast::make(base, lanes);
    }
    return Ramp::make(base, IntImm::make(as.type(), stride), lanes);
}

// The constant stride of a ramp if it is 2 to 4 (loaded as dense vectors
// and shuffles), else 0.
int small_stride(const Ramp *r) {
    const IntImm *stride = r->stride.as<IntImm>();
    return stride && stride->value > 1 && stride->value <= 4 ? (int)stride->value : 0;
}

// `index` with every min/max that clamps a ramp removed, and in
// `in_range` the (scalar) condition under which that changes nothing.
// Undefined if the index has another shape. Only sums, differences and
// constant multiples of ramps, broadcasts and clamps are understood.
Expr unclamp(const Expr &index, Expr &in_range) {
    if (index.as<Ramp>() || index.as<Broadcast>()) {
        return index;
    }
    auto both = [&](const Expr &a, const Expr &b, Expr &ua, Expr &ub) {
        ua = unclamp(a, in_range);
        ub = ua.defined() ? unclamp(b, in_range) : Expr();
        return ub.defined();
    };
    Expr ua, ub;
    if (const Add *op = index.as<Add>()) {
        return both(op->a, op->b, ua, ub) ? ramp_sum(ua, ub, 1) : Expr();
    }
    if (const Sub *op = index.as<Sub>()) {
        return both(op->a, op->b, ua, ub) ? ramp_sum(ua, ub, -1) : Expr();
    }
    bool is_min = index.as<Min>() != nullptr;
    if (is_min || index.as<Max>()) {
        Expr a = is_min ? index.as<Min>()->a : index.as<Max>()->a;
        const Broadcast *limit = (is_min ? index.as<Min>()->b : index.as<Max>()->b).as<Broadcast>();
        Expr inner = limit ? unclamp(a, in_range) : Expr();
        const Ramp *r = inner.defined() ? inner.as<Ramp>() : nullptr;
        const IntImm *stride = r ? r->stride.as<IntImm>() : nullptr;
        if (!stride || stride->value < 0 || !r->type.is_int() || r->type.bits() != 32) {
            return Expr();
        }
        // The lanes rise, so the first or last lane is the extreme one.
        Expr cond =
            is_min ? LE::make(Add::make(r->base, IntImm::make(Int(32), stride->value * (r->lanes - 1))), limit->value)
                   : GE::make(r->base, limit->value);
        in_range = in_range.defined() ? And::make(in_range, cond) : cond;
        return inner;
    }
    return Expr();
}

// `index` as offset + clamp(ramp(base, 1, lanes), lo, hi) with scalar
// offset, base, lo and hi: the shape of an image read through a clamp
// (repeat_edge, clamp(likely(x), ...)) with a row offset added.
bool clamped_dense_ramp(const Expr &index, Expr &offset, Expr &base, Expr &lo, Expr &hi) {
    if (const Add *op = index.as<Add>()) {
        for (int side = 0; side < 2; side++) {
            const Broadcast *b = (side == 0 ? op->b : op->a).as<Broadcast>();
            if (b && clamped_dense_ramp(side == 0 ? op->a : op->b, offset, base, lo, hi)) {
                offset = Add::make(offset, b->value);
                return true;
            }
        }
        return false;
    }
    // max(min(r, hi), lo) or min(max(r, lo), hi), the same where lo <= hi.
    const Max *outer_max = index.as<Max>();
    const Min *outer_min = index.as<Min>();
    const Broadcast *outer = outer_max   ? outer_max->b.as<Broadcast>()
                             : outer_min ? outer_min->b.as<Broadcast>()
                                         : nullptr;
    if (!outer) {
        return false;
    }
    const Broadcast *inner = nullptr;
    Expr r;
    if (const Min *m = outer_max ? outer_max->a.as<Min>() : nullptr) {
        inner = m->b.as<Broadcast>(), r = m->a;
    } else if (const Max *m = outer_min ? outer_min->a.as<Max>() : nullptr) {
        inner = m->b.as<Broadcast>(), r = m->a;
    }
    if (!inner) {
        return false;
    }
    if (const Add *op = r.as<Add>(); op && op->a.as<Ramp>() && op->b.as<Broadcast>()) {
        r = ramp_sum(op->a, op->b, 1);
    }
    if (!r.defined() || !dense_ramp(r) || r.type().element_of() != Int(32)) {
        return false;
    }
    base = r.as<Ramp>()->base;
    lo = outer_max ? outer->value : inner->value;
    hi = outer_max ? inner->value : outer->value;
    offset = IntImm::make(Int(32), 0);
    return true;
}

} // namespace

// Row pointers. A loop's body that adds a let bound outside the loop to
// its indices (a row offset: `(y - in.min.1) * in.stride.1 - in.min.0`)
// gets its address as in.host + that offset, invariant, which LLVM hoists
// into the loop's preheader; a partitioned row has three x loops, none of
// whose preheaders dominates the others', so each computed its own row
// pointers, one per constant offset folded in (Sobel: twelve pointers per
// edge loop, spilled and reloaded). Computed where the let is bound, once,
// the three loops share them.

namespace {

// The symbol of let `var`'s row pointer into buffer `name`, of elements of
// `bytes` bytes.
std::string row_pointer_name(const std::string &var, const std::string &name, int bytes) {
    return var + ".row_pointer." + name + "." + std::to_string(bytes);
}

// Whether the sum `e` has a likely() or likely_if_innermost() term: an
// index in the steady state of a partitioned loop, affine in the loop's
// variable, which LLVM's strength reduction steps as pointers from the
// buffer's host (with row pointers as bases, it chose more pointers to
// step: Sobel's steady loop from 29 to 34 instructions per vector).
bool has_likely_term(const Expr &e) {
    if (const Add *op = e.as<Add>()) {
        return has_likely_term(op->a) || has_likely_term(op->b);
    }
    const Call *c = e.as<Call>();
    return c && c->call_type == Call::Intrinsic && (c->name == "likely" || c->name == "likely_if_innermost");
}

// Whether s has a loop.
bool has_loop(const Stmt &s) {
    class Finder : public IRVisitor {
    public:
        bool found = false;
        using IRVisitor::visit;
        void visit(const For *) override { found = true; }
    } f;
    s.accept(&f);
    return f.found;
}

// Whether element_address() would address `index` from `var`'s row
// pointer: a sum with `var` as a term and no likely term (a vector index
// through its ramp's base, or with `var` broadcast; a clamped ramp's dense
// path adds the two).
bool uses_row_term(const Expr &index, const std::string &var) {
    bool found = false, steady = false;
    std::function<void(const Expr &)> terms = [&](const Expr &e) {
        if (const Add *op = e.as<Add>()) {
            terms(op->a);
            terms(op->b);
        } else if (const Broadcast *op = e.as<Broadcast>()) {
            terms(op->value);
        } else if (const Ramp *op = e.as<Ramp>()) {
            terms(op->base);
        } else if (const Variable *v = e.as<Variable>()) {
            found = found || v->name == var;
        } else {
            steady = steady || has_likely_term(e);
        }
    };
    terms(index);
    return found && !steady;
}

// `index` as v + rest, v a term that has a row pointer into `name` bound;
// the term's symbol in `pointer`.
bool split_row_term(const Expr &index, const std::string &name, int bytes,
                    const std::function<bool(const std::string &)> &bound, std::string &pointer, Expr &rest) {
    if (const Variable *v = index.as<Variable>()) {
        std::string p = row_pointer_name(v->name, name, bytes);
        if (v->type == Int(32) && bound(p)) {
            pointer = p;
            rest = IntImm::make(Int(32), 0);
            return true;
        }
        return false;
    }
    if (const Add *op = index.as<Add>()) {
        Expr r;
        if (split_row_term(op->a, name, bytes, bound, pointer, r)) {
            rest = Add::make(r, op->b);
            return true;
        }
        if (split_row_term(op->b, name, bytes, bound, pointer, r)) {
            rest = Add::make(op->a, r);
            return true;
        }
    }
    return false;
}

} // namespace

std::vector<std::string> CodeGen_LLVM::push_row_pointers(const LetStmt *op) {
    std::vector<std::string> names;
    // Only the lets lower/ShareLoopInvariants.cpp binds (`<loop>.shared$<n>`):
    // values it took out of the loops' indices to compute once. Other lets
    // (a line buffer's min, its extent) stay variables in the indices.
    if (op->value.type() != Int(32) || op->name.find(".shared$") == std::string::npos || !has_loop(op->body)) {
        return names;
    }
    // Indices that add the let get its value, in 64 bits term by term
    // (index_i64), as if it were written in them: the form LLVM's strength
    // reduction steps best, and where a loop seldom runs (a ShiftInwards
    // tail), computed only if it does.
    index_lets_[op->name].push_back(op->value);
    // The buffers (with their element sizes) indexed by op->name plus other
    // terms, inside a loop of the body.
    class Uses : public IRVisitor {
    public:
        explicit Uses(const std::string &var) : var_(var) {}
        // The loops of the body (outermost ones, by number) each buffer is
        // addressed from the row pointer in.
        std::map<std::pair<std::string, int>, std::set<int>> buffers;
        using IRVisitor::visit;
        void visit(const For *op) override {
            if (depth_++ == 0) {
                loop_++;
            }
            IRVisitor::visit(op);
            depth_--;
        }
        void visit(const Load *op) override {
            use(op->name, op->type, op->index);
            IRVisitor::visit(op);
        }
        void visit(const Store *op) override {
            use(op->name, op->value.type(), op->index);
            IRVisitor::visit(op);
        }

    private:
        void use(const std::string &name, const Type &t, const Expr &index) {
            if (depth_ > 0 && index.type().element_of() == Int(32) && uses_row_term(index, var_)) {
                buffers[{name, t.bytes()}].insert(loop_);
            }
        }
        std::string var_;
        int depth_ = 0, loop_ = 0;
    } uses(op->name);
    op->body.accept(&uses);
    llvm::Value *wide = nullptr; // the let in 64 bits, once a row pointer needs it
    for (const auto &[buffer, loops] : uses.buffers) {
        const auto &[name, bytes] = buffer;
        if (loops.size() < 2 || !has_sym(name + ".host")) {
            // One loop's row pointer is LLVM's to hoist into that loop's
            // preheader, computed only if the loop runs (a ShiftInwards tail
            // that seldom does); a buffer allocated inside the let has no
            // host yet.
            continue;
        }
        if (!wide) {
            wide = index_i64(op->value);
        }
        llvm::Value *offset = b_.CreateNSWMul(wide, b_.getInt64(bytes));
        std::string p = row_pointer_name(op->name, name, bytes);
        push(p, b_.CreateInBoundsGEP(i8_, sym(name + ".host"), offset, p));
        names.push_back(p);
    }
    return names;
}

void CodeGen_LLVM::pop_index_let(const std::string &name) {
    auto it = index_lets_.find(name);
    if (it != index_lets_.end()) {
        it->second.pop_back();
        if (it->second.empty()) {
            index_lets_.erase(it);
        }
    }
}

llvm::Value *CodeGen_LLVM::element_address(const std::string &name, const Expr &index, llvm::Type *elem) {
    std::string pointer;
    Expr rest;
    int bytes = (int)(elem->getPrimitiveSizeInBits() / 8);
    if (bytes > 0 &&
        split_row_term(
            index, name, bytes, [&](const std::string &p) { return has_sym(p); }, pointer, rest) &&
        !has_likely_term(rest)) {
        return b_.CreateInBoundsGEP(elem, sym(pointer), index_i64(rest));
    }
    llvm::Value *base = sym(name + ".host");
    llvm::Value *idx = index_i64(index);
    return b_.CreateInBoundsGEP(elem, base, idx);
}

llvm::Value *CodeGen_LLVM::index_i64(const Expr &e) {
    if (e.type() == Int(32)) {
        if (const IntImm *c = e.as<IntImm>()) {
            return b_.getInt64((uint64_t)c->value);
        }
        if (const Add *op = e.as<Add>()) {
            return b_.CreateNSWAdd(index_i64(op->a), index_i64(op->b));
        }
        if (const Sub *op = e.as<Sub>()) {
            return b_.CreateNSWSub(index_i64(op->a), index_i64(op->b));
        }
        if (const Mul *op = e.as<Mul>()) {
            return b_.CreateNSWMul(index_i64(op->a), index_i64(op->b));
        }
        const Call *c = e.as<Call>();
        if (c && c->call_type == Call::Intrinsic &&
            (c->name == "promise_clamped" || c->name == "likely" || c->name == "likely_if_innermost")) {
            return index_i64(c->args[0]);
        }
        if (const Variable *v = e.as<Variable>()) {
            auto let = index_lets_.find(v->name);
            if (let != index_lets_.end()) {
                return index_i64(let->second.back()); // a let around loops (push_row_pointers)
            }
        }
    }
    return to_i64(codegen(e), e.type());
}

llvm::Value *CodeGen_LLVM::ramp(const Ramp *op) {
    Type t = op->type;
    llvm::Value *base = b_.CreateVectorSplat(op->lanes, codegen(op->base));
    llvm::Value *stride = b_.CreateVectorSplat(op->lanes, codegen(op->stride));
    std::vector<llvm::Constant *> lanes;
    for (int i = 0; i < op->lanes; i++) {
        lanes.push_back(is_floating(t) ? llvm::ConstantFP::get(scalar_type(t), i)
                                       : llvm::ConstantInt::get(scalar_type(t), i));
    }
    llvm::Value *iota = llvm::ConstantVector::get(lanes);
    if (is_floating(t)) {
        return b_.CreateFAdd(base, b_.CreateFMul(stride, iota));
    }
    return b_.CreateAdd(base, b_.CreateMul(stride, iota));
}

llvm::Value *CodeGen_LLVM::lane_addresses(const std::string &name, const Expr &index, llvm::Type *elem) {
    llvm::Value *idx = codegen(index);
    int lanes = index.type().lanes();
    idx = b_.CreateIntCast(idx, llvm::FixedVectorType::get(i64_, lanes), !index.type().is_uint());
    return b_.CreateGEP(elem, sym(name + ".host"), idx);
}

llvm::Value *CodeGen_LLVM::all_lanes(int lanes) {
    return llvm::ConstantVector::getSplat(llvm::ElementCount::getFixed(lanes), b_.getTrue());
}

llvm::Value *CodeGen_LLVM::load(const Load *op) {
    Type t = op->type;
    llvm::Type *mt = mem_type(t);
    llvm::Align align(t.bytes());
    llvm::Instruction *v;
    if (t.is_scalar()) {
        v = b_.CreateAlignedLoad(mt, element_address(op->name, op->index, mt), align);
    } else if (const Ramp *r = dense_ramp(op->index)) {
        v = b_.CreateAlignedLoad(mt, element_address(op->name, r->base, mem_type(t.element_of())), align);
    } else if (const Broadcast *bc = op->index.as<Broadcast>()) {
        llvm::Type *et = mem_type(t.element_of());
        llvm::LoadInst *one = b_.CreateAlignedLoad(et, element_address(op->name, bc->value, et), align);
        one->setMetadata(llvm::LLVMContext::MD_tbaa, buffer_tbaa(op->name));
        return from_memory(b_.CreateVectorSplat(t.lanes(), one), t);
    } else {
        Expr in_range;
        Expr dense = unclamp(op->index, in_range);
        const Ramp *r = dense.defined() ? dense.as<Ramp>() : nullptr;
        if (r && in_range.defined() && (dense_ramp(dense) || small_stride(r))) {
            return clamped_ramp_load(op, r, in_range);
        }
        if (const Ramp *strided = op->index.as<Ramp>(); strided && small_stride(strided)) {
            return strided_load(op, strided, small_stride(strided));
        }
        if (llvm::Value *looked_up = byte_table_lookup(op)) {
            return looked_up;
        }
        if (llvm::Value *permuted = span_load(op)) {
            return from_memory(permuted, t);
        }
        return from_memory(gather(op), t);
    }
    v->setMetadata(llvm::LLVMContext::MD_tbaa, buffer_tbaa(op->name));
    return from_memory(v, t);
}

// One scalar load per lane, at the lane's 32-bit index taken out of the
// index vector (x86 has no fast gather before AVX-512, and LLVM's own
// scalarization of a gather first widens every index to a 64-bit
// address in vector registers, then takes those out).
llvm::Value *CodeGen_LLVM::gather(const Load *op, llvm::Value *idx) {
    Type t = op->type;
    llvm::Type *et = mem_type(t.element_of());
    idx = idx ? idx : codegen(op->index);
    llvm::Value *result = llvm::PoisonValue::get(mem_type(t));
    for (int i = 0; i < t.lanes(); i++) {
        llvm::Value *lane = b_.CreateExtractElement(idx, (uint64_t)i);
        lane = b_.CreateIntCast(lane, i64_, !op->index.type().is_uint());
        llvm::LoadInst *one =
            b_.CreateAlignedLoad(et, b_.CreateInBoundsGEP(et, sym(op->name + ".host"), lane), llvm::Align(t.bytes()));
        one->setMetadata(llvm::LLVMContext::MD_tbaa, buffer_tbaa(op->name));
        result = b_.CreateInsertElement(result, one, (uint64_t)i);
    }
    return result;
}

llvm::Value *CodeGen_LLVM::clamped_ramp_load(const Load *op, const Ramp *dense, const Expr &in_range) {
    Type t = op->type;
    llvm::Value *v = branch_value(
        codegen(in_range), true, op->name + "_dense",
        [&]() -> llvm::Value * {
            if (int stride = small_stride(dense)) {
                return to_memory(strided_load(op, dense, stride), t);
            }
            llvm::LoadInst *l = b_.CreateAlignedLoad(
                mem_type(t), element_address(op->name, dense->base, mem_type(t.element_of())), llvm::Align(t.bytes()));
            l->setMetadata(llvm::LLVMContext::MD_tbaa, buffer_tbaa(op->name));
            return l;
        },
        [&] {
            Expr offset, base, lo, hi;
            return clamped_dense_ramp(op->index, offset, base, lo, hi) && t.lanes() % 2 == 0
                       ? shifted_clamped_load(op, offset, base, lo, hi)
                       : gather(op);
        });
    return from_memory(v, t);
}

// The lanes of in[offset + clamp(ramp(base, 1, n), lo, hi)] read the run
// of elements [p, q] = [clamp(base), clamp(base + n - 1)], shifted by up to
// n lanes, with its first (or last) element repeated into the lanes
// shifted in. Where the run holds at least n / 2 elements (an edge vector
// with a few lanes clamped), it is read by two loads of n / 2 lanes at its
// two ends, which never leave it (the lanes read all of it: the loads touch
// no element the gather would not), and written to a stack array between
// n copies of its first and n of its last element; n lanes are read back
// from where the ramp's base falls. Four stores and a load instead of a
// load per lane. (The read-back straddles the stores, so it waits for
// them: cheap next to a gather.) A shorter run gathers.
llvm::Value *CodeGen_LLVM::shifted_clamped_load(const Load *op, const Expr &offset, const Expr &base, const Expr &lo,
                                                const Expr &hi) {
    Type t = op->type;
    int n = t.lanes(), h = n / 2;
    if (h < 2) {
        return gather(op); // the halves would be scalars, which do not shuffle
    }
    llvm::Type *mt = mem_type(t), *et = mem_type(t.element_of());
    llvm::Type *half = mem_type(t.with_lanes(h));
    llvm::Align elem_align(t.element_of().bytes());
    auto i32c = [](int64_t v) { return IntImm::make(Int(32), v); };
    auto clamp_to = [&](const Expr &e) { return Max::make(Min::make(e, hi), lo); };
    // As lets: each is used more than once.
    llvm::Value *p_v = codegen(clamp_to(base));
    llvm::Value *q_v = codegen(clamp_to(Add::make(base, i32c(n - 1))));
    llvm::Value *k_v = b_.CreateAdd(b_.CreateSub(q_v, p_v), b_.getInt32(1));
    return branch_value(
        b_.CreateICmpSGE(k_v, b_.getInt32(h)), false, op->name + "_shifted",
        [&]() -> llvm::Value * {
            std::string p_name = op->name + ".run_first", q_name = op->name + ".run_last";
            Expr p = Variable::make(Int(32), p_name), q = Variable::make(Int(32), q_name);
            push(p_name, p_v);
            push(q_name, q_v);
            auto load_half = [&](const Expr &at) {
                llvm::LoadInst *l =
                    b_.CreateAlignedLoad(half, element_address(op->name, Add::make(offset, at), et), elem_align);
                l->setMetadata(llvm::LLVMContext::MD_tbaa, buffer_tbaa(op->name));
                return l;
            };
            llvm::Value *front = load_half(p), *back = load_half(Sub::make(q, i32c(h - 1)));
            int bits = (int)et->getPrimitiveSizeInBits();
            if ((et->isIntegerTy() || et->isFloatingPointTy()) && permute_supported(n, bits)) {
                // Lane i reads element clamp(base + i, p, q): p + r[i] with
                // r = clamp(ramp(base - p), 0, q - p), picked from the two halves.
                Expr r = Max::make(
                    Min::make(Ramp::make(Sub::make(base, p), i32c(1), n), Broadcast::make(Sub::make(q, p), n)),
                    Broadcast::make(i32c(0), n));
                llvm::Value *r_v = codegen(r);
                pop(p_name);
                pop(q_name);
                return pick_from_run(front, back, r_v, b_.CreateSub(q_v, p_v));
            }
            llvm::Value *skew =
                codegen(Max::make(Min::make(Sub::make(base, p), Add::make(Sub::make(q, p), i32c(1))), i32c(-n)));
            pop(p_name);
            pop(q_name);
            llvm::IRBuilder<> entry(&current_fn()->getEntryBlock(), current_fn()->getEntryBlock().begin());
            llvm::AllocaInst *tmp = entry.CreateAlloca(llvm::ArrayType::get(et, 3 * n), nullptr, "clamped_lanes");
            tmp->setAlignment(llvm::Align(t.bytes()));
            llvm::Value *k64 = b_.CreateSExt(k_v, i64_);
            auto store_at = [&](llvm::Value *v, llvm::Value *at) {
                b_.CreateAlignedStore(v, b_.CreateInBoundsGEP(et, tmp, at), elem_align);
            };
            store_at(b_.CreateShuffleVector(front, std::vector<int>(n, 0)), b_.getInt64(0));
            store_at(front, b_.getInt64(n));
            store_at(back, b_.CreateAdd(k64, b_.getInt64(n - h)));
            store_at(b_.CreateShuffleVector(back, std::vector<int>(n, h - 1)), b_.CreateAdd(k64, b_.getInt64(n)));
            llvm::Value *at = b_.CreateAdd(b_.CreateSExt(skew, i64_), b_.getInt64(n));
            return b_.CreateAlignedLoad(mt, b_.CreateInBoundsGEP(et, tmp, at), elem_align);
        },
        [&] { return gather(op); });
}

llvm::Value *CodeGen_LLVM::strided_load(const Load *op, const Ramp *r, int stride) {
    Type t = op->type;
    int lanes = t.lanes();
    llvm::Type *mt = mem_type(t), *et = mem_type(t.element_of());
    llvm::Align align(t.bytes());
    // The ramp spans `span` elements from its base; chunk j covers
    // [offset_j, offset_j + lanes), the last one ending at the span's end.
    int span = stride * (lanes - 1) + 1;
    llvm::Value *result = llvm::PoisonValue::get(mt);
    std::vector<bool> filled(lanes, false);
    for (int offset = 0;; offset += lanes) {
        int at = std::min(offset, span - lanes);
        llvm::Value *addr = element_address(op->name, Add::make(r->base, IntImm::make(Int(32), at)), et);
        llvm::LoadInst *chunk = b_.CreateAlignedLoad(mt, addr, align);
        chunk->setMetadata(llvm::LLVMContext::MD_tbaa, buffer_tbaa(op->name));
        // Lanes of the result from this chunk come from the second operand.
        std::vector<int> mask(lanes);
        for (int i = 0; i < lanes; i++) {
            int e = i * stride - at;
            if (!filled[i] && e >= 0 && e < lanes) {
                mask[i] = lanes + e;
                filled[i] = true;
            } else {
                mask[i] = i;
            }
        }
        result = b_.CreateShuffleVector(result, chunk, mask);
        if (at == span - lanes) {
            break;
        }
    }
    return from_memory(result, t);
}

llvm::Value *CodeGen_LLVM::concat_vectors(const std::vector<llvm::Value *> &parts) {
    int part = (int)llvm::cast<llvm::FixedVectorType>(parts[0]->getType())->getNumElements();
    llvm::Value *all = parts[0];
    for (size_t j = 1; j < parts.size(); j++) {
        int have = (int)j * part;
        // Both operands of a shuffle must be alike: pad the next part to `have` lanes.
        std::vector<int> pad(have, -1);
        for (int i = 0; i < part; i++) {
            pad[i] = i;
        }
        llvm::Value *next = have == part ? parts[j] : b_.CreateShuffleVector(parts[j], pad);
        std::vector<int> cat(have + part);
        for (int i = 0; i < have + part; i++) {
            cat[i] = i;
        }
        all = b_.CreateShuffleVector(all, next, cat);
    }
    return all;
}

llvm::Value *CodeGen_LLVM::interleave_vectors(const Call *op) {
    int m = (int)op->args.size();
    int part = op->args[0].type().lanes();
    // Concatenate the parts, then pick.
    std::vector<llvm::Value *> parts;
    for (const Expr &a : op->args) {
        parts.push_back(codegen(a));
    }
    llvm::Value *all = concat_vectors(parts);
    std::vector<int> pick(m * part);
    for (int i = 0; i < m * part; i++) {
        pick[i] = (i % m) * part + i / m;
    }
    return b_.CreateShuffleVector(all, pick);
}

llvm::Value *CodeGen_LLVM::slice_vector(const Call *op) {
    internal_assert(op->args.size() == 4) << "slice_vector(v, start, stride, lanes) expected";
    const IntImm *start = op->args[1].as<IntImm>(), *stride = op->args[2].as<IntImm>(),
                 *lanes = op->args[3].as<IntImm>();
    internal_assert(start && stride && lanes) << "slice_vector takes constant start, stride and lanes";
    std::vector<int> pick(lanes->value);
    for (int i = 0; i < (int)lanes->value; i++) {
        pick[i] = (int)(start->value + i * stride->value);
    }
    return b_.CreateShuffleVector(codegen(op->args[0]), pick);
}

llvm::Value *CodeGen_LLVM::masked_load(const Call *op) {
    const Load *load = op->args[0].as<Load>();
    internal_assert(load && op->args.size() == 2) << "masked_load(load, mask) expected";
    Type t = load->type;
    llvm::Value *mask = codegen(op->args[1]);
    llvm::Type *mt = mem_type(t);
    llvm::Align align(t.bytes());
    // The lanes the mask turns off read as 0, never as poison: arithmetic
    // on them (a division, say) must stay defined.
    llvm::Value *off = llvm::Constant::getNullValue(mt);
    llvm::Instruction *v;
    if (const Ramp *r = dense_ramp(load->index)) {
        v = b_.CreateMaskedLoad(mt, element_address(load->name, r->base, mem_type(t.element_of())), align, mask, off);
    } else {
        v = b_.CreateMaskedGather(mt, lane_addresses(load->name, load->index, mem_type(t.element_of())), align, mask,
                                  off);
    }
    v->setMetadata(llvm::LLVMContext::MD_tbaa, buffer_tbaa(load->name));
    return from_memory(v, t);
}

void CodeGen_LLVM::masked_store(const Store *op, const Call *masked) {
    Type t = masked->args[0].type();
    llvm::Value *v = to_memory(codegen(masked->args[0]), t);
    llvm::Value *mask = codegen(masked->args[1]);
    llvm::Align align(t.bytes());
    llvm::Instruction *st;
    if (const Ramp *r = dense_ramp(op->index)) {
        st = b_.CreateMaskedStore(v, element_address(op->name, r->base, mem_type(t.element_of())), align, mask);
    } else {
        // A scatter writes its lanes in order: the last wins where two collide.
        st = b_.CreateMaskedScatter(v, lane_addresses(op->name, op->index, mem_type(t.element_of())), align, mask);
    }
    st->setMetadata(llvm::LLVMContext::MD_tbaa, buffer_tbaa(op->name));
}

void CodeGen_LLVM::store(const Store *op) {
    if (const Call *c = op->value.as<Call>(); c && c->call_type == Call::Intrinsic && c->name == "masked_store") {
        masked_store(op, c);
        return;
    }
    if (is_atomic_store(op)) {
        atomic_store(op);
        return;
    }
    Type t = op->value.type();
    llvm::Value *v = to_memory(codegen(op->value), t);
    llvm::Align align(t.bytes());
    llvm::Instruction *st;
    if (t.is_scalar()) {
        st = b_.CreateAlignedStore(v, element_address(op->name, op->index, mem_type(t)), align);
    } else if (const Ramp *r = dense_ramp(op->index)) {
        st = b_.CreateAlignedStore(v, element_address(op->name, r->base, mem_type(t.element_of())), align);
    } else {
        // Lanes are written in order, so the last lane wins where two collide.
        llvm::Value *ptrs = lane_addresses(op->name, op->index, mem_type(t.element_of()));
        for (int i = 0; i < t.lanes(); i++) {
            llvm::Value *lane = b_.CreateExtractElement(v, (uint64_t)i);
            llvm::Value *addr = b_.CreateExtractElement(ptrs, (uint64_t)i);
            b_.CreateAlignedStore(lane, addr, align)->setMetadata(llvm::LLVMContext::MD_tbaa, buffer_tbaa(op->name));
        }
        return;
    }
    st->setMetadata(llvm::LLVMContext::MD_tbaa, buffer_tbaa(op->name));
}

llvm::MDNode *CodeGen_LLVM::buffer_tbaa(const std::string &name) {
    llvm::MDNode *&tag = tbaa_tags_[name];
    if (!tag) {
        llvm::MDBuilder md(ctx_);
        if (!tbaa_root_) {
            tbaa_root_ = md.createTBAARoot("Halide buffers");
        }
        llvm::MDNode *type = md.createTBAAScalarTypeNode(name, tbaa_root_);
        tag = md.createTBAAStructTagNode(type, type, 0);
    }
    return tag;
}
} // namespace Internal
} // namespace Halide
