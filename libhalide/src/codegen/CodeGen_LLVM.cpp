// Code generation from the lowered IR to LLVM IR.
//
// One CodeGen object walks the statement once, emitting into the entry
// point NAME_argv. Values live in a scoped symbol table (name -> stack of
// llvm::Value*). Parallel loops are outlined into task functions that read
// the symbols they use from a closure struct. Heap allocations still live at
// an early return (a failed assert, a failed parallel task) are freed before
// the function returns.
#include "codegen/CodeGen_LLVM.h"

#include <algorithm>
#include <cstring>
#include <map>
#include <mutex>
#include <set>
#include <vector>

#include "Halide/Error.h"
#include "Halide/IR.h"
#include "codegen/LLVM_Headers.h"

namespace Halide {
namespace Internal {

namespace {

// Offsets of the halide_buffer_t and halide_dimension_t fields (ABI.md 2).
constexpr int kBufDeviceOffset = 0;
constexpr int kBufHostOffset = 16;
constexpr int kBufFlagsOffset = 24;
constexpr int kBufTypeOffset = 32;
constexpr int kBufDimensionsOffset = 36;
constexpr int kBufDimOffset = 40;
constexpr int kDimSize = 16;
constexpr int kDimMinOffset = 0;
constexpr int kDimExtentOffset = 4;
constexpr int kDimStrideOffset = 8;

const char *const kUserContext = "__user_context";

void init_llvm_targets_once() {
    static std::once_flag flag;
    std::call_once(flag, [] {
        llvm::InitializeNativeTarget();
        llvm::InitializeNativeTargetAsmPrinter();
        llvm::InitializeNativeTargetAsmParser();
        // The targets ahead-of-time compilation can cross-compile to.
        LLVMInitializeX86TargetInfo();
        LLVMInitializeX86Target();
        LLVMInitializeX86TargetMC();
        LLVMInitializeX86AsmPrinter();
        LLVMInitializeAArch64TargetInfo();
        LLVMInitializeAArch64Target();
        LLVMInitializeAArch64TargetMC();
        LLVMInitializeAArch64AsmPrinter();
    });
}

// Every symbol name a statement refers to: Variables, and the `<name>.host`
// base pointer of every Load and Store. Names bound inside the statement are
// included too; the caller keeps only those bound outside.
class SymbolUses {
public:
    std::set<std::string> names;

    void expr(const Expr &e) {
        if (!e.defined()) {
            return;
        }
        switch (e->node_type) {
        case IRNodeType::IntImm:
        case IRNodeType::UIntImm:
        case IRNodeType::FloatImm:
        case IRNodeType::StringImm: return;
        case IRNodeType::Cast: expr(e.as<Cast>()->value); return;
        case IRNodeType::Variable: names.insert(e.as<Variable>()->name); return;
#define HALIDE_BIN(N)                                                                                                  \
    case IRNodeType::N:                                                                                                \
        expr(e.as<N>()->a);                                                                                            \
        expr(e.as<N>()->b);                                                                                            \
        return;
            HALIDE_BIN(Add)
            HALIDE_BIN(Sub)
            HALIDE_BIN(Mul)
            HALIDE_BIN(Div)
            HALIDE_BIN(Mod)
            HALIDE_BIN(Min)
            HALIDE_BIN(Max)
            HALIDE_BIN(EQ)
            HALIDE_BIN(NE)
            HALIDE_BIN(LT)
            HALIDE_BIN(LE)
            HALIDE_BIN(GT)
            HALIDE_BIN(GE)
            HALIDE_BIN(And)
            HALIDE_BIN(Or)
#undef HALIDE_BIN
        case IRNodeType::Not: expr(e.as<Not>()->a); return;
        case IRNodeType::Select: {
            const Select *op = e.as<Select>();
            expr(op->condition);
            expr(op->true_value);
            expr(op->false_value);
            return;
        }
        case IRNodeType::Load: {
            const Load *op = e.as<Load>();
            names.insert(op->name + ".host");
            expr(op->index);
            return;
        }
        case IRNodeType::Ramp:
            expr(e.as<Ramp>()->base);
            expr(e.as<Ramp>()->stride);
            return;
        case IRNodeType::Broadcast: expr(e.as<Broadcast>()->value); return;
        case IRNodeType::Call:
            for (const Expr &a : e.as<Call>()->args) {
                expr(a);
            }
            return;
        case IRNodeType::Let: {
            const Let *op = e.as<Let>();
            expr(op->value);
            expr(op->body);
            return;
        }
        default: internal_error << "SymbolUses: unexpected expression node";
        }
    }

    void stmt(const Stmt &s) {
        if (!s.defined()) {
            return;
        }
        switch (s->node_type) {
        case IRNodeType::LetStmt: {
            const LetStmt *op = s.as<LetStmt>();
            expr(op->value);
            stmt(op->body);
            return;
        }
        case IRNodeType::AssertStmt: {
            const AssertStmt *op = s.as<AssertStmt>();
            expr(op->condition);
            expr(op->message);
            return;
        }
        case IRNodeType::For: {
            const For *op = s.as<For>();
            expr(op->min);
            expr(op->extent);
            stmt(op->body);
            return;
        }
        case IRNodeType::Store: {
            const Store *op = s.as<Store>();
            names.insert(op->name + ".host");
            expr(op->value);
            expr(op->index);
            return;
        }
        case IRNodeType::Allocate: {
            const Allocate *op = s.as<Allocate>();
            for (const Expr &e : op->extents) {
                expr(e);
            }
            stmt(op->body);
            return;
        }
        case IRNodeType::Block: {
            const Block *op = s.as<Block>();
            stmt(op->first);
            stmt(op->rest);
            return;
        }
        case IRNodeType::IfThenElse: {
            const IfThenElse *op = s.as<IfThenElse>();
            expr(op->condition);
            stmt(op->then_case);
            stmt(op->else_case);
            return;
        }
        case IRNodeType::Evaluate: expr(s.as<Evaluate>()->value); return;
        default: internal_error << "SymbolUses: unexpected statement node";
        }
    }
};

std::string sanitize(const std::string &s) {
    std::string r = s;
    for (char &c : r) {
        bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
        if (!ok) {
            c = '_';
        }
    }
    return r;
}

bool is_floating(const Type &t) {
    return t.is_float() || t.code() == halide_type_bfloat;
}

class CodeGen {
public:
    CodeGen(llvm::LLVMContext &ctx, llvm::Module &module) : ctx_(ctx), module_(module), b_(ctx) {
        i1_ = llvm::Type::getInt1Ty(ctx);
        i8_ = llvm::Type::getInt8Ty(ctx);
        i32_ = llvm::Type::getInt32Ty(ctx);
        i64_ = llvm::Type::getInt64Ty(ctx);
        ptr_ = llvm::PointerType::get(ctx, 0);
    }

    // NAME(args...) runs the pipeline; NAME_argv(void **) unpacks an argv
    // array and calls it (ABI.md 4); NAME_metadata() describes the
    // arguments (ABI.md 3) when `target_string` is given.
    void compile(const LoweredFunc &f, const std::string *target_string) {
        func_name_ = f.name;
        fn_ = declare_entry(f, f.name);
        b_.SetInsertPoint(llvm::BasicBlock::Create(ctx_, "entry", fn_));
        bool have_uc = false;
        for (size_t i = 0; i < f.args.size(); i++) {
            const LoweredArgument &a = f.args[i];
            llvm::Argument *v = fn_->getArg((unsigned)i);
            std::string symbol = a.is_buffer() ? a.name + ".buffer" : a.name;
            v->setName(symbol);
            push(symbol, v);
            have_uc = have_uc || a.name == kUserContext;
        }
        if (!have_uc) {
            push(kUserContext, llvm::ConstantPointerNull::get(ptr_));
        }
        codegen(f.body);
        b_.CreateRet(llvm::ConstantInt::get(i32_, 0));
        emit_argv_wrapper(f);
        if (target_string) {
            emit_metadata(f, *target_string);
        }
    }

    // A multitarget wrapper: NAME(args...) calls the first variant whose
    // features halide_can_use_target_features accepts, else the last one;
    // NAME_argv and NAME_metadata as for a single kernel.
    void compile_dispatcher(const LoweredFunc &f, const std::vector<MultitargetVariant> &variants,
                            const std::string &target_string) {
        func_name_ = f.name;
        fn_ = declare_entry(f, f.name);
        b_.SetInsertPoint(llvm::BasicBlock::Create(ctx_, "entry", fn_));
        std::vector<llvm::Value *> args;
        for (llvm::Argument &a : fn_->args()) {
            args.push_back(&a);
        }
        llvm::FunctionCallee can_use = runtime_fn("halide_can_use_target_features", i32_, {i32_, ptr_});
        for (size_t v = 0; v < variants.size(); v++) {
            llvm::Function *callee = declare_entry(f, variants[v].function);
            auto call_variant = [&] {
                llvm::CallInst *c = b_.CreateCall(callee, args);
                c->setAttributes(callee->getAttributes());
                c->setTailCall();
                b_.CreateRet(c);
            };
            if (v + 1 == variants.size()) {
                call_variant(); // the base target: always usable
                break;
            }
            std::vector<llvm::Constant *> words;
            for (uint64_t w : variants[v].feature_words) {
                words.push_back(llvm::ConstantInt::get(i64_, w));
            }
            auto *arr_ty = llvm::ArrayType::get(i64_, words.size());
            llvm::Constant *bits =
                private_constant(llvm::ConstantArray::get(arr_ty, words), variants[v].function + ".features");
            llvm::Value *ok = b_.CreateCall(can_use, {llvm::ConstantInt::get(i32_, (int)words.size()), bits});
            llvm::BasicBlock *yes = new_block(variants[v].function), *no = new_block("next_variant");
            b_.CreateCondBr(b_.CreateICmpNE(ok, llvm::ConstantInt::get(i32_, 0)), yes, no);
            b_.SetInsertPoint(yes);
            call_variant();
            b_.SetInsertPoint(no);
        }
        emit_argv_wrapper(f);
        emit_metadata(f, target_string);
    }

private:
    // `int name(args...)` with f's parameters, C ABI attributes included.
    llvm::Function *declare_entry(const LoweredFunc &f, const std::string &name) {
        std::vector<llvm::Type *> param_types;
        for (const LoweredArgument &a : f.args) {
            param_types.push_back(a.is_buffer() ? ptr_ : reg_type(a.type));
        }
        llvm::FunctionType *ft = llvm::FunctionType::get(i32_, param_types, false);
        llvm::Function *fn = llvm::Function::Create(ft, llvm::Function::ExternalLinkage, name, &module_);
        for (size_t i = 0; i < f.args.size(); i++) {
            if (!f.args[i].is_buffer()) {
                add_c_abi_attributes(fn, (unsigned)i, f.args[i].type);
            }
        }
        return fn;
    }

    // Narrow integers and bools are extended by the caller in the C ABI.
    void add_c_abi_attributes(llvm::Function *fn, unsigned i, const Type &t) {
        if ((t.is_int() || t.is_uint()) && t.bits() < 32) {
            fn->addParamAttr(i, t.is_int() ? llvm::Attribute::SExt : llvm::Attribute::ZExt);
        }
    }

    void emit_argv_wrapper(const LoweredFunc &f) {
        llvm::FunctionType *ft = llvm::FunctionType::get(i32_, {ptr_}, false);
        llvm::Function *argv = llvm::Function::Create(ft, llvm::Function::ExternalLinkage, f.name + "_argv", &module_);
        argv->getArg(0)->setName("args");
        llvm::IRBuilder<> b(llvm::BasicBlock::Create(ctx_, "entry", argv));
        std::vector<llvm::Value *> values;
        for (size_t i = 0; i < f.args.size(); i++) {
            const LoweredArgument &a = f.args[i];
            llvm::Value *slot = b.CreateConstInBoundsGEP1_64(ptr_, argv->getArg(0), i);
            llvm::Value *p = b.CreateAlignedLoad(ptr_, slot, llvm::Align(8), a.name + ".argp");
            if (a.is_buffer()) {
                values.push_back(p);
                continue;
            }
            llvm::Value *v = b.CreateAlignedLoad(mem_type(a.type), p, llvm::Align(a.type.bytes()), a.name);
            values.push_back(a.type.is_bool() ? b.CreateIsNotNull(v) : v);
        }
        llvm::CallInst *call = b.CreateCall(fn_, values);
        for (size_t i = 0; i < f.args.size(); i++) {
            const Type &t = f.args[i].type;
            if (!f.args[i].is_buffer() && (t.is_int() || t.is_uint()) && t.bits() < 32) {
                call->addParamAttr((unsigned)i, t.is_int() ? llvm::Attribute::SExt : llvm::Attribute::ZExt);
            }
        }
        call->setTailCall();
        b.CreateRet(call);
    }

    // halide_filter_metadata_t and its halide_filter_argument_t array, as
    // constants, and NAME_metadata() returning a pointer to them.
    void emit_metadata(const LoweredFunc &f, const std::string &target_string) {
        llvm::Type *i16 = llvm::Type::getInt16Ty(ctx_);
        llvm::StructType *type_ty = llvm::StructType::get(ctx_, {i8_, i8_, i16});
        llvm::StructType *arg_ty =
            llvm::StructType::get(ctx_, {ptr_, i32_, i32_, type_ty, ptr_, ptr_, ptr_, ptr_, ptr_});
        llvm::Constant *null = llvm::ConstantPointerNull::get(ptr_);
        std::vector<llvm::Constant *> args;
        for (const LoweredArgument &a : f.args) {
            int kind = a.kind == LoweredArgument::Scalar ? 0 : (a.kind == LoweredArgument::InputBuffer ? 1 : 2);
            Type t = a.is_buffer() || !a.type.is_handle() ? a.type : Handle();
            llvm::Constant *type = llvm::ConstantStruct::get(type_ty, {llvm::ConstantInt::get(i8_, (int)t.code()),
                                                                       llvm::ConstantInt::get(i8_, t.bits()),
                                                                       llvm::ConstantInt::get(i16, 1)});
            llvm::Constant *estimates = null;
            if (a.is_buffer()) {
                // Upstream always gives buffers an estimates array: per
                // dimension a pointer to the min and to the extent, or NULL.
                std::vector<llvm::Constant *> entries;
                for (int d = 0; d < std::max(a.dimensions, 1); d++) {
                    bool known = (size_t)d < a.buffer_estimates.size();
                    entries.push_back(known ? int64_constant(a.buffer_estimates[(size_t)d].min) : null);
                    entries.push_back(known ? int64_constant(a.buffer_estimates[(size_t)d].extent) : null);
                }
                auto *arr_ty = llvm::ArrayType::get(ptr_, entries.size());
                estimates = private_constant(llvm::ConstantArray::get(arr_ty, entries), a.name + ".buffer_estimates");
            }
            args.push_back(llvm::ConstantStruct::get(
                arg_ty, {string_constant(a.name), llvm::ConstantInt::get(i32_, kind),
                         llvm::ConstantInt::get(i32_, a.dimensions), type, scalar_constant(a.scalar_def, a.type),
                         scalar_constant(a.scalar_min, a.type), scalar_constant(a.scalar_max, a.type),
                         scalar_constant(a.scalar_estimate, a.type), estimates}));
        }
        auto *args_ty = llvm::ArrayType::get(arg_ty, args.size());
        llvm::Constant *arg_array = private_constant(llvm::ConstantArray::get(args_ty, args), "arguments");
        llvm::StructType *md_ty = llvm::StructType::get(ctx_, {i32_, i32_, ptr_, ptr_, ptr_});
        llvm::Constant *md = private_constant(
            llvm::ConstantStruct::get(md_ty, {llvm::ConstantInt::get(i32_, 1),
                                              llvm::ConstantInt::get(i32_, (int)f.args.size()), arg_array,
                                              string_constant(target_string), string_constant(f.name)}),
            "metadata");
        llvm::FunctionType *ft = llvm::FunctionType::get(ptr_, {}, false);
        llvm::Function *fn =
            llvm::Function::Create(ft, llvm::Function::ExternalLinkage, f.name + "_metadata", &module_);
        llvm::IRBuilder<> b(llvm::BasicBlock::Create(ctx_, "entry", fn));
        b.CreateRet(md);
    }

    llvm::Constant *private_constant(llvm::Constant *value, const std::string &name) {
        // Private names never clash with the exported NAME_* symbols.
        auto *gv = new llvm::GlobalVariable(module_, value->getType(), true, llvm::GlobalValue::PrivateLinkage, value,
                                            "." + func_name_ + "." + sanitize(name));
        gv->setAlignment(llvm::Align(8));
        return gv;
    }

    // An int64_t holding `value` if it is an integer constant, else NULL.
    llvm::Constant *int64_constant(const Expr &value) {
        const IntImm *i = value.defined() ? value.as<IntImm>() : nullptr;
        if (!i) {
            return llvm::ConstantPointerNull::get(ptr_);
        }
        return private_constant(llvm::ConstantInt::get(i64_, (uint64_t)i->value), "estimate");
    }

    // A halide_scalar_value_t holding `value` (a constant of type t), or NULL.
    llvm::Constant *scalar_constant(const Expr &value, const Type &t) {
        if (!value.defined() || t.is_handle()) {
            return llvm::ConstantPointerNull::get(ptr_);
        }
        uint64_t bits = 0;
        if (const IntImm *i = value.as<IntImm>()) {
            bits = (uint64_t)i->value;
        } else if (const UIntImm *u = value.as<UIntImm>()) {
            bits = u->value;
        } else if (const FloatImm *f = value.as<FloatImm>()) {
            if (t.bits() == 32) {
                float v = (float)f->value;
                uint32_t b32;
                std::memcpy(&b32, &v, 4);
                bits = b32;
            } else {
                std::memcpy(&bits, &f->value, 8);
            }
        } else {
            return llvm::ConstantPointerNull::get(ptr_);
        }
        if (t.bits() < 64) { // the union's member is at offset 0: keep the low bytes only
            bits &= (uint64_t(1) << (t.bits() == 1 ? 8 : t.bits())) - 1;
        }
        return private_constant(llvm::ConstantInt::get(i64_, bits), "scalar");
    }

    llvm::LLVMContext &ctx_;
    llvm::Module &module_;
    llvm::IRBuilder<> b_;
    llvm::Type *i1_, *i8_, *i32_, *i64_;
    llvm::PointerType *ptr_;

    std::string func_name_;
    llvm::Function *fn_ = nullptr;
    std::map<std::string, std::vector<llvm::Value *>> symbols_;
    // Heap blocks of the current function that an early return must free.
    std::vector<llvm::Value *> live_allocations_;
    std::map<std::string, llvm::Constant *> strings_;
    int task_counter_ = 0;

    // ---------------------------------------------------------------- types

    llvm::Type *scalar_type(const Type &t) {
        switch (t.code()) {
        case halide_type_int:
        case halide_type_uint: return llvm::IntegerType::get(ctx_, t.bits());
        case halide_type_float:
            switch (t.bits()) {
            case 16: return llvm::Type::getHalfTy(ctx_);
            case 32: return llvm::Type::getFloatTy(ctx_);
            case 64: return llvm::Type::getDoubleTy(ctx_);
            default: internal_error << "No LLVM type for float" << t.bits();
            }
        case halide_type_bfloat: return llvm::Type::getBFloatTy(ctx_);
        case halide_type_handle: return ptr_;
        }
        internal_error << "Unknown type code " << (int)t.code();
    }

    // The type of a value in registers (bool is i1).
    llvm::Type *reg_type(const Type &t) {
        internal_assert(t.bits() > 0) << "codegen of an expression with no type";
        llvm::Type *s = scalar_type(t);
        return t.lanes() > 1 ? llvm::FixedVectorType::get(s, t.lanes()) : s;
    }

    // The type of a value in memory (bool is i8).
    llvm::Type *mem_type(const Type &t) {
        if (t.is_bool()) {
            return t.lanes() > 1 ? llvm::FixedVectorType::get(i8_, t.lanes()) : i8_;
        }
        return reg_type(t);
    }

    llvm::Value *from_memory(llvm::Value *v, const Type &t) { return t.is_bool() ? b_.CreateIsNotNull(v) : v; }
    llvm::Value *to_memory(llvm::Value *v, const Type &t) { return t.is_bool() ? b_.CreateZExt(v, mem_type(t)) : v; }

    // ---------------------------------------------------------------- symbols

    void push(const std::string &name, llvm::Value *v) { symbols_[name].push_back(v); }
    void pop(const std::string &name) {
        auto it = symbols_.find(name);
        internal_assert(it != symbols_.end() && !it->second.empty()) << "popping unbound symbol " << name;
        it->second.pop_back();
        if (it->second.empty()) {
            symbols_.erase(it);
        }
    }
    llvm::Value *sym(const std::string &name) {
        auto it = symbols_.find(name);
        internal_assert(it != symbols_.end() && !it->second.empty()) << "Symbol not found in codegen: " << name;
        return it->second.back();
    }
    bool has_sym(const std::string &name) const { return symbols_.count(name) != 0; }

    // ---------------------------------------------------------------- helpers

    llvm::Constant *int_const(llvm::Type *t, int64_t v) { return llvm::ConstantInt::get(t, (uint64_t)v, true); }

    llvm::FunctionCallee runtime_fn(const std::string &name, llvm::Type *ret, std::vector<llvm::Type *> args) {
        llvm::FunctionType *ft = llvm::FunctionType::get(ret, args, false);
        if (llvm::Function *existing = module_.getFunction(name)) {
            internal_assert(existing->getFunctionType() == ft)
                << "function " << name << " is called with two different signatures";
        }
        return module_.getOrInsertFunction(name, ft);
    }

    llvm::Function *current_fn() { return b_.GetInsertBlock()->getParent(); }

    llvm::BasicBlock *new_block(const std::string &name) { return llvm::BasicBlock::Create(ctx_, name, current_fn()); }

    // Formats args[first..] separated by spaces with snprintf into a stack
    // buffer and hands the line to halide_print, as print() promises.
    void emit_print(const std::vector<Expr> &args, size_t first) {
        std::string format;
        std::vector<llvm::Value *> values;
        for (size_t i = first; i < args.size(); i++) {
            const Expr &a = args[i];
            llvm::Value *v = codegen(a);
            Type t = a.type();
            format += i > first ? " " : "";
            if (a.as<StringImm>()) {
                format += "%s";
            } else if (t.is_float()) {
                format += "%f";
                v = b_.CreateFPCast(v, llvm::Type::getDoubleTy(ctx_));
            } else if (t.is_handle()) {
                format += "%p";
            } else {
                format += t.is_int() ? "%lld" : "%llu";
                v = b_.CreateIntCast(v, i64_, t.is_int());
            }
            values.push_back(v);
        }
        format += "\n";
        constexpr int kLineBytes = 1024;
        llvm::Function *fn = current_fn();
        llvm::IRBuilder<> entry(&fn->getEntryBlock(), fn->getEntryBlock().begin());
        llvm::Value *line = entry.CreateAlloca(llvm::ArrayType::get(i8_, kLineBytes), nullptr, "print_line");
        llvm::FunctionType *snprintf_ty = llvm::FunctionType::get(i32_, {ptr_, i64_, ptr_}, true);
        llvm::FunctionCallee snprintf_fn = module_.getOrInsertFunction("snprintf", snprintf_ty);
        std::vector<llvm::Value *> call_args = {line, int_const(i64_, kLineBytes),
                                                b_.CreateGlobalStringPtr(format, "print_format")};
        call_args.insert(call_args.end(), values.begin(), values.end());
        b_.CreateCall(snprintf_fn, call_args);
        b_.CreateCall(runtime_fn("halide_print", llvm::Type::getVoidTy(ctx_), {ptr_, ptr_}), {sym(kUserContext), line});
    }

    void branch_likely(llvm::Value *cond, llvm::BasicBlock *likely_bb, llvm::BasicBlock *unlikely_bb) {
        llvm::MDBuilder md(ctx_);
        b_.CreateCondBr(cond, likely_bb, unlikely_bb, md.createBranchWeights(1u << 20, 1));
    }

    // Frees every live heap allocation, then returns `code` from the
    // current function. Leaves the builder in a fresh unreachable block.
    void emit_return(llvm::Value *code) {
        llvm::FunctionCallee free_fn = runtime_fn("halide_free", llvm::Type::getVoidTy(ctx_), {ptr_, ptr_});
        for (auto it = live_allocations_.rbegin(); it != live_allocations_.rend(); ++it) {
            b_.CreateCall(free_fn, {sym(kUserContext), *it});
        }
        b_.CreateRet(code);
    }

    llvm::Value *to_i32(llvm::Value *v, const Type &t) {
        if (v->getType() == i32_) {
            return v;
        }
        return b_.CreateIntCast(v, i32_, t.is_int());
    }

    llvm::Value *to_i64(llvm::Value *v, const Type &t) {
        if (v->getType() == i64_) {
            return v;
        }
        return b_.CreateIntCast(v, i64_, !t.is_uint());
    }

    // Makes an integer value fit the node's type (for intrinsics whose raw
    // field width differs from the type the IR asked for).
    llvm::Value *fit(llvm::Value *v, const Type &t) {
        llvm::Type *want = reg_type(t);
        if (v->getType() == want) {
            return v;
        }
        internal_assert(v->getType()->isIntegerTy() && want->isIntegerTy()) << "intrinsic result type mismatch";
        return b_.CreateIntCast(v, want, t.is_int());
    }

    llvm::Constant *string_constant(const std::string &s) {
        auto it = strings_.find(s);
        if (it != strings_.end()) {
            return it->second;
        }
        llvm::Constant *data = llvm::ConstantDataArray::getString(ctx_, s, true);
        auto *gv =
            new llvm::GlobalVariable(module_, data->getType(), true, llvm::GlobalValue::PrivateLinkage, data, ".str");
        gv->setUnnamedAddr(llvm::GlobalValue::UnnamedAddr::Global);
        gv->setAlignment(llvm::Align(1));
        strings_[s] = gv;
        return gv;
    }

    // ---------------------------------------------------------------- expressions

    llvm::Value *codegen(const Expr &e) {
        internal_assert(e.defined()) << "codegen of an undefined Expr";
        switch (e->node_type) {
        case IRNodeType::IntImm: return int_const(reg_type(e.type()), e.as<IntImm>()->value);
        case IRNodeType::UIntImm: return llvm::ConstantInt::get(reg_type(e.type()), e.as<UIntImm>()->value, false);
        case IRNodeType::FloatImm: return llvm::ConstantFP::get(reg_type(e.type()), e.as<FloatImm>()->value);
        case IRNodeType::StringImm: return string_constant(e.as<StringImm>()->value);
        case IRNodeType::Cast: {
            const Cast *op = e.as<Cast>();
            return cast(codegen(op->value), op->value.type(), op->type);
        }
        case IRNodeType::Variable: return sym(e.as<Variable>()->name);
        case IRNodeType::Add: return arith(e.as<Add>()->a, e.as<Add>()->b, llvm::Instruction::Add);
        case IRNodeType::Sub: return arith(e.as<Sub>()->a, e.as<Sub>()->b, llvm::Instruction::Sub);
        case IRNodeType::Mul: return arith(e.as<Mul>()->a, e.as<Mul>()->b, llvm::Instruction::Mul);
        case IRNodeType::Div: return div_mod(e.as<Div>()->a, e.as<Div>()->b, true);
        case IRNodeType::Mod: return div_mod(e.as<Mod>()->a, e.as<Mod>()->b, false);
        case IRNodeType::Min: return min_max(e.as<Min>()->a, e.as<Min>()->b, true);
        case IRNodeType::Max: return min_max(e.as<Max>()->a, e.as<Max>()->b, false);
        case IRNodeType::EQ: return compare(e.as<EQ>()->a, e.as<EQ>()->b, IRNodeType::EQ);
        case IRNodeType::NE: return compare(e.as<NE>()->a, e.as<NE>()->b, IRNodeType::NE);
        case IRNodeType::LT: return compare(e.as<LT>()->a, e.as<LT>()->b, IRNodeType::LT);
        case IRNodeType::LE: return compare(e.as<LE>()->a, e.as<LE>()->b, IRNodeType::LE);
        case IRNodeType::GT: return compare(e.as<GT>()->a, e.as<GT>()->b, IRNodeType::GT);
        case IRNodeType::GE: return compare(e.as<GE>()->a, e.as<GE>()->b, IRNodeType::GE);
        case IRNodeType::And: {
            llvm::Value *a = codegen(e.as<And>()->a);
            return b_.CreateAnd(a, codegen(e.as<And>()->b));
        }
        case IRNodeType::Or: {
            llvm::Value *a = codegen(e.as<Or>()->a);
            return b_.CreateOr(a, codegen(e.as<Or>()->b));
        }
        case IRNodeType::Not: return b_.CreateNot(codegen(e.as<Not>()->a));
        case IRNodeType::Select: {
            const Select *op = e.as<Select>();
            llvm::Value *c = codegen(op->condition);
            llvm::Value *t = codegen(op->true_value);
            llvm::Value *f = codegen(op->false_value);
            return b_.CreateSelect(c, t, f);
        }
        case IRNodeType::Load: return load(e.as<Load>());
        case IRNodeType::Ramp: return ramp(e.as<Ramp>());
        case IRNodeType::Broadcast: {
            const Broadcast *op = e.as<Broadcast>();
            return b_.CreateVectorSplat(op->lanes, codegen(op->value));
        }
        case IRNodeType::Call: return call(e.as<Call>());
        case IRNodeType::Let: {
            const Let *op = e.as<Let>();
            llvm::Value *v = codegen(op->value);
            push(op->name, v);
            llvm::Value *r = codegen(op->body);
            pop(op->name);
            return r;
        }
        default: internal_error << "codegen: not an expression node";
        }
    }

    llvm::Value *cast(llvm::Value *v, const Type &from, const Type &to) {
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

    // a << b or a >> b (the operands have one width). A negative signed
    // amount shifts the other way, as upstream does; shifting by the width or
    // more gives 0 (or the sign, for a right shift of a signed value) rather
    // than LLVM's poison.
    llvm::Value *shift(bool left, const Type &t, llvm::Value *a, bool signed_amount, llvm::Value *b) {
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

    llvm::Value *shift_by_magnitude(bool left, const Type &t, llvm::Value *a, llvm::Value *amount) {
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

    llvm::Value *arith(const Expr &ea, const Expr &eb, llvm::Instruction::BinaryOps int_op) {
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

    // Integer Div/Mod per IR.h, without branches and without ever trapping:
    // a zero divisor gives 0, and INT_MIN / -1 wraps. Signed division is
    // Euclidean: the remainder is in [0, |b|) and a == (a / b) * b + a % b,
    // so for b > 0 the quotient is the floor of a / b.
    llvm::Value *div_mod(const Expr &ea, const Expr &eb, bool is_div) {
        Type t = ea.type();
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

    llvm::Value *min_max(const Expr &ea, const Expr &eb, bool is_min) {
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

    llvm::Value *compare(const Expr &ea, const Expr &eb, IRNodeType kind) {
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

    // Address of element `index` of the flat buffer `name`.
    llvm::Value *element_address(const std::string &name, const Expr &index, llvm::Type *elem) {
        llvm::Value *base = sym(name + ".host");
        llvm::Value *idx = index_i64(index);
        return b_.CreateInBoundsGEP(elem, base, idx);
    }

    // An int32 index computed in 64 bits, without signed overflow (an index
    // that overflowed would address outside the buffer anyway). This lets
    // LLVM see that neighbouring elements are adjacent in memory, which its
    // vectorizers need.
    llvm::Value *index_i64(const Expr &e) {
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
            if (c && c->call_type == Call::Intrinsic && (c->name == "promise_clamped" || c->name == "likely")) {
                return index_i64(c->args[0]);
            }
        }
        return to_i64(codegen(e), e.type());
    }

    // A ramp of stride 1: the lanes are adjacent elements.
    static const Ramp *dense_ramp(const Expr &index) {
        const Ramp *r = index.as<Ramp>();
        const IntImm *stride = r ? r->stride.as<IntImm>() : nullptr;
        return stride && stride->value == 1 ? r : nullptr;
    }

    llvm::Value *ramp(const Ramp *op) {
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

    // One address per lane of a vector index (for gathers and scatters).
    llvm::Value *lane_addresses(const std::string &name, const Expr &index, llvm::Type *elem) {
        llvm::Value *idx = codegen(index);
        int lanes = index.type().lanes();
        idx = b_.CreateIntCast(idx, llvm::FixedVectorType::get(i64_, lanes), !index.type().is_uint());
        return b_.CreateGEP(elem, sym(name + ".host"), idx);
    }

    llvm::Value *all_lanes(int lanes) {
        return llvm::ConstantVector::getSplat(llvm::ElementCount::getFixed(lanes), b_.getTrue());
    }

    llvm::Value *load(const Load *op) {
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
            const Ramp *r = dense.defined() ? dense_ramp(dense) : nullptr;
            if (r && in_range.defined()) {
                return clamped_ramp_load(op, r, in_range);
            }
            v = gather(op);
        }
        v->setMetadata(llvm::LLVMContext::MD_tbaa, buffer_tbaa(op->name));
        return from_memory(v, t);
    }

    llvm::Instruction *gather(const Load *op) {
        Type t = op->type;
        llvm::Value *ptrs = lane_addresses(op->name, op->index, mem_type(t.element_of()));
        return b_.CreateMaskedGather(mem_type(t), ptrs, llvm::Align(t.bytes()), all_lanes(t.lanes()));
    }

    // A load through a clamped ramp (an image read with a clamped edge):
    // when every lane is inside the clamp, which is almost always, the
    // clamp changes nothing and one dense load does; otherwise gather.
    llvm::Value *clamped_ramp_load(const Load *op, const Ramp *dense, const Expr &in_range) {
        Type t = op->type;
        llvm::Value *cond = codegen(in_range);
        llvm::BasicBlock *fast = new_block(op->name + "_dense"), *slow = new_block(op->name + "_clamped");
        llvm::BasicBlock *done = new_block(op->name + "_loaded");
        branch_likely(cond, fast, slow);
        b_.SetInsertPoint(fast);
        llvm::Type *et = mem_type(t.element_of());
        llvm::LoadInst *a =
            b_.CreateAlignedLoad(mem_type(t), element_address(op->name, dense->base, et), llvm::Align(t.bytes()));
        a->setMetadata(llvm::LLVMContext::MD_tbaa, buffer_tbaa(op->name));
        llvm::BasicBlock *fast_end = b_.GetInsertBlock();
        b_.CreateBr(done);
        b_.SetInsertPoint(slow);
        llvm::Instruction *g = gather(op);
        g->setMetadata(llvm::LLVMContext::MD_tbaa, buffer_tbaa(op->name));
        llvm::BasicBlock *slow_end = b_.GetInsertBlock();
        b_.CreateBr(done);
        b_.SetInsertPoint(done);
        llvm::PHINode *phi = b_.CreatePHI(mem_type(t), 2);
        phi->addIncoming(a, fast_end);
        phi->addIncoming(g, slow_end);
        return from_memory(phi, t);
    }

    // `index` with every min/max that clamps a ramp removed, and in
    // `in_range` the (scalar) condition under which that changes nothing.
    // Undefined if the index has another shape. Only sums, differences and
    // constant multiples of ramps, broadcasts and clamps are understood.
    static Expr unclamp(const Expr &index, Expr &in_range) {
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
            Expr cond = is_min ? LE::make(Add::make(r->base, IntImm::make(Int(32), stride->value * (r->lanes - 1))),
                                          limit->value)
                               : GE::make(r->base, limit->value);
            in_range = in_range.defined() ? And::make(in_range, cond) : cond;
            return inner;
        }
        return Expr();
    }

    // a + sign * b for ramps and broadcasts (strides folded when constant).
    static Expr ramp_sum(const Expr &a, const Expr &b, int sign) {
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

    void store(const Store *op) {
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
                b_.CreateAlignedStore(lane, addr, align)
                    ->setMetadata(llvm::LLVMContext::MD_tbaa, buffer_tbaa(op->name));
            }
            return;
        }
        st->setMetadata(llvm::LLVMContext::MD_tbaa, buffer_tbaa(op->name));
    }

    // Distinct buffers never overlap (as in upstream Halide): each buffer's
    // loads and stores get their own TBAA type, so LLVM may reorder and
    // vectorize accesses to different buffers.
    llvm::MDNode *buffer_tbaa(const std::string &name) {
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
    llvm::MDNode *tbaa_root_ = nullptr;
    std::map<std::string, llvm::MDNode *> tbaa_tags_;

    // buffer_fill_query(buf, type word, dimensions, min0, extent0, min1, ...):
    // the answer to a bounds query (ABI.md 9) written into the caller's
    // halide_buffer_t: type (lanes 1), dimensions, flags 0 and per dimension
    // {min, extent, dense stride, 0} in the caller's dim array.
    void fill_bounds_query(const Call *op) {
        llvm::Value *buf = codegen(op->args[0]);
        llvm::Value *type = b_.CreateOr(codegen(op->args[1]), llvm::ConstantInt::get(i32_, 1u << 16));
        int dims = (int)op->args[2].as<IntImm>()->value;
        store_field(buf, kBufTypeOffset, type, 4);
        store_field(buf, kBufDimensionsOffset, llvm::ConstantInt::get(i32_, dims), 4);
        store_field(buf, kBufFlagsOffset, llvm::ConstantInt::get(i64_, 0), 8);
        llvm::Value *dim = load_field(buf, kBufDimOffset, ptr_, 8);
        llvm::Value *stride = llvm::ConstantInt::get(i32_, 1);
        for (int d = 0; d < dims; d++) {
            llvm::Value *min = to_i32(codegen(op->args[3 + 2 * d]), op->args[3 + 2 * d].type());
            llvm::Value *extent = to_i32(codegen(op->args[4 + 2 * d]), op->args[4 + 2 * d].type());
            store_field(dim, d * kDimSize + kDimMinOffset, min, 4);
            store_field(dim, d * kDimSize + kDimExtentOffset, extent, 4);
            store_field(dim, d * kDimSize + kDimStrideOffset, stride, 4);
            store_field(dim, d * kDimSize + kDimStrideOffset + 4, llvm::ConstantInt::get(i32_, 0), 4);
            stride = b_.CreateMul(stride, extent);
        }
    }

    void store_field(llvm::Value *base, int offset, llvm::Value *v, int align) {
        llvm::Value *addr = b_.CreateConstInBoundsGEP1_64(i8_, base, offset);
        b_.CreateAlignedStore(v, addr, llvm::Align(align));
    }

    // A field of type `ty` at byte `offset` of the struct at `base`.
    llvm::Value *load_field(llvm::Value *base, int offset, llvm::Type *ty, int align) {
        llvm::Value *addr = b_.CreateConstInBoundsGEP1_64(i8_, base, offset);
        return b_.CreateAlignedLoad(ty, addr, llvm::Align(align));
    }

    llvm::Value *dim_field(const Call *op, int field_offset) {
        internal_assert(op->args.size() == 2) << op->name << " takes (buffer, dimension)";
        llvm::Value *buf = codegen(op->args[0]);
        llvm::Value *d = to_i64(codegen(op->args[1]), op->args[1].type());
        llvm::Value *dims = load_field(buf, kBufDimOffset, ptr_, 8);
        llvm::Value *off = b_.CreateAdd(b_.CreateMul(d, int_const(i64_, kDimSize)), int_const(i64_, field_offset));
        llvm::Value *addr = b_.CreateInBoundsGEP(i8_, dims, off);
        return fit(b_.CreateAlignedLoad(i32_, addr, llvm::Align(4)), op->type);
    }

    llvm::Value *call(const Call *op) {
        switch (op->call_type) {
        case Call::Halide:
        case Call::Image:
            internal_error << "Call to " << op->name << " reached codegen; lowering should have replaced it";
        case Call::Extern: return call_extern(op);
        case Call::Intrinsic: return call_intrinsic(op);
        }
        internal_error << "unknown call type";
    }

    // C math functions that LLVM has intrinsics for (so they become
    // instructions, for vectors too). nearbyint rounds half to even, as
    // roundeven does, in the default rounding mode code runs in.
    static llvm::Intrinsic::ID math_intrinsic(const std::string &name) {
        static const std::map<std::string, llvm::Intrinsic::ID> intrinsics = {
            {"sqrt", llvm::Intrinsic::sqrt},           {"floor", llvm::Intrinsic::floor},
            {"ceil", llvm::Intrinsic::ceil},           {"trunc", llvm::Intrinsic::trunc},
            {"nearbyint", llvm::Intrinsic::roundeven}, {"fabs", llvm::Intrinsic::fabs},
        };
        std::string base = name;
        if (!base.empty() && base.back() == 'f') {
            base.pop_back(); // sqrtf is sqrt on float32
        }
        auto it = intrinsics.find(base);
        return it == intrinsics.end() ? llvm::Intrinsic::not_intrinsic : it->second;
    }

    llvm::Value *call_extern(const Call *op) {
        bool float_math = is_floating(op->type) && !op->args.empty() && is_floating(op->args[0].type());
        if (float_math && op->args.size() == 1) {
            llvm::Intrinsic::ID id = math_intrinsic(op->name);
            if (id != llvm::Intrinsic::not_intrinsic) {
                return b_.CreateUnaryIntrinsic(id, codegen(op->args[0]));
            }
        }
        if (op->type.is_vector()) {
            return scalarized_call(op);
        }
        std::vector<llvm::Value *> args;
        for (const Expr &a : op->args) {
            args.push_back(codegen(a));
        }
        return scalar_call(op, args);
    }

    // A vector call of a C function: one call per lane.
    llvm::Value *scalarized_call(const Call *op) {
        std::vector<llvm::Value *> vargs;
        for (const Expr &a : op->args) {
            vargs.push_back(codegen(a));
        }
        llvm::Value *result = llvm::PoisonValue::get(reg_type(op->type));
        for (int i = 0; i < op->type.lanes(); i++) {
            std::vector<llvm::Value *> lane_args;
            for (llvm::Value *v : vargs) {
                lane_args.push_back(v->getType()->isVectorTy() ? b_.CreateExtractElement(v, (uint64_t)i) : v);
            }
            result = b_.CreateInsertElement(result, scalar_call(op, lane_args), (uint64_t)i);
        }
        return result;
    }

    llvm::Value *scalar_call(const Call *op, const std::vector<llvm::Value *> &args) {
        std::vector<llvm::Type *> arg_types;
        for (llvm::Value *a : args) {
            arg_types.push_back(a->getType());
        }
        llvm::Type *ret = op->type.bits() == 0 ? llvm::Type::getVoidTy(ctx_) : reg_type(op->type.element_of());
        llvm::FunctionCallee callee = runtime_fn(op->name, ret, arg_types);
        llvm::CallInst *c = b_.CreateCall(callee, args);
        // The C ABI extends integer arguments narrower than 32 bits.
        auto *f = llvm::dyn_cast<llvm::Function>(callee.getCallee());
        for (size_t i = 0; i < op->args.size(); i++) {
            Type t = op->args[i].type();
            if ((t.is_int() || t.is_uint()) && t.bits() < 32) {
                llvm::Attribute::AttrKind k = t.is_int() ? llvm::Attribute::SExt : llvm::Attribute::ZExt;
                c->addParamAttr((unsigned)i, k);
                if (f) {
                    f->addParamAttr((unsigned)i, k);
                }
            }
        }
        if ((op->type.is_int() || op->type.is_uint()) && op->type.bits() > 0 && op->type.bits() < 32) {
            llvm::Attribute::AttrKind k = op->type.is_int() ? llvm::Attribute::SExt : llvm::Attribute::ZExt;
            c->addRetAttr(k);
            if (f) {
                f->addRetAttr(k);
            }
        }
        return c;
    }

    llvm::Value *call_intrinsic(const Call *op) {
        const std::string &n = op->name;
        auto arg = [&](size_t i) {
            internal_assert(i < op->args.size()) << "intrinsic " << n << " needs argument " << i;
            return codegen(op->args[i]);
        };
        if (n == "likely" || n == "likely_if_innermost" || n == "promise_clamped" || n == "unsafe_promise_clamped") {
            return arg(0);
        }
        if (n == "print") {
            llvm::Value *value = arg(0);
            emit_print(op->args, 0);
            return value;
        }
        if (n == "print_when") {
            llvm::Value *cond = arg(0);
            llvm::Value *value = arg(1);
            llvm::BasicBlock *yes = new_block("print_when"), *done = new_block("print_when_done");
            b_.CreateCondBr(cond, yes, done);
            b_.SetInsertPoint(yes);
            emit_print(op->args, 1);
            b_.CreateBr(done);
            b_.SetInsertPoint(done);
            return value;
        }
        if (n == "buffer_get_host") {
            return load_field(arg(0), kBufHostOffset, ptr_, 8);
        }
        if (n == "buffer_get_min") {
            return dim_field(op, kDimMinOffset);
        }
        if (n == "buffer_get_extent") {
            return dim_field(op, kDimExtentOffset);
        }
        if (n == "buffer_get_stride") {
            return dim_field(op, kDimStrideOffset);
        }
        if (n == "buffer_get_dimensions") {
            return fit(load_field(arg(0), kBufDimensionsOffset, i32_, 4), op->type);
        }
        if (n == "buffer_get_type") {
            return fit(load_field(arg(0), kBufTypeOffset, i32_, 4), op->type);
        }
        if (n == "buffer_get_flags") {
            return fit(load_field(arg(0), kBufFlagsOffset, i64_, 8), op->type);
        }
        if (n == "buffer_fill_query") {
            fill_bounds_query(op);
            return llvm::ConstantInt::get(i32_, 0);
        }
        if (n == "buffer_is_bounds_query") {
            llvm::Value *buf = arg(0);
            llvm::Value *host = load_field(buf, kBufHostOffset, ptr_, 8);
            llvm::Value *device = load_field(buf, kBufDeviceOffset, i64_, 8);
            return b_.CreateAnd(b_.CreateIsNull(host), b_.CreateIsNull(device));
        }
        if (n == "bitwise_and" || n == "bitwise_or" || n == "bitwise_xor") {
            llvm::Value *a = arg(0);
            llvm::Value *b = arg(1);
            if (n == "bitwise_and") {
                return b_.CreateAnd(a, b);
            }
            return n == "bitwise_or" ? b_.CreateOr(a, b) : b_.CreateXor(a, b);
        }
        if (n == "bitwise_not") {
            return b_.CreateNot(arg(0));
        }
        if (n == "shift_left" || n == "shift_right") {
            return shift(n == "shift_left", op->args[0].type(), arg(0), op->args[1].type().is_int(), arg(1));
        }
        if (n == "abs") {
            Type t = op->args[0].type();
            llvm::Value *a = arg(0);
            llvm::Value *r;
            if (is_floating(t)) {
                r = b_.CreateUnaryIntrinsic(llvm::Intrinsic::fabs, a);
            } else if (t.is_int()) {
                r = b_.CreateBinaryIntrinsic(llvm::Intrinsic::abs, a, llvm::ConstantInt::getFalse(ctx_));
            } else {
                r = a;
            }
            return r;
        }
        if (n == "reinterpret") {
            Type from = op->args[0].type();
            llvm::Value *a = arg(0);
            if (from.is_handle() || op->type.is_handle()) {
                return cast(a, from, op->type);
            }
            return b_.CreateBitCast(a, reg_type(op->type));
        }
        internal_error << "Unknown intrinsic in codegen: " << n;
    }

    // ---------------------------------------------------------------- statements

    void codegen(const Stmt &s) {
        if (!s.defined()) {
            return;
        }
        switch (s->node_type) {
        case IRNodeType::LetStmt: {
            const LetStmt *op = s.as<LetStmt>();
            llvm::Value *v = codegen(op->value);
            if (!v->hasName() && !llvm::isa<llvm::Constant>(v)) {
                v->setName(op->name);
            }
            push(op->name, v);
            codegen(op->body);
            pop(op->name);
            return;
        }
        case IRNodeType::AssertStmt: {
            const AssertStmt *op = s.as<AssertStmt>();
            llvm::Value *c = codegen(op->condition);
            llvm::BasicBlock *ok = new_block("assert_ok");
            llvm::BasicBlock *fail = new_block("assert_failed");
            branch_likely(c, ok, fail);
            b_.SetInsertPoint(fail);
            llvm::Value *code = to_i32(codegen(op->message), op->message.type());
            emit_return(code);
            b_.SetInsertPoint(ok);
            return;
        }
        case IRNodeType::For: return for_loop(s.as<For>());
        case IRNodeType::Store: return store(s.as<Store>());
        case IRNodeType::Allocate: return allocate(s.as<Allocate>());
        case IRNodeType::Block: {
            const Block *op = s.as<Block>();
            codegen(op->first);
            codegen(op->rest);
            return;
        }
        case IRNodeType::IfThenElse: {
            const IfThenElse *op = s.as<IfThenElse>();
            llvm::Value *c = codegen(op->condition);
            llvm::BasicBlock *then_bb = new_block("then");
            llvm::BasicBlock *else_bb = op->else_case.defined() ? new_block("else") : nullptr;
            llvm::BasicBlock *after = new_block("after_if");
            b_.CreateCondBr(c, then_bb, else_bb ? else_bb : after);
            b_.SetInsertPoint(then_bb);
            codegen(op->then_case);
            b_.CreateBr(after);
            if (else_bb) {
                b_.SetInsertPoint(else_bb);
                codegen(op->else_case);
                b_.CreateBr(after);
            }
            b_.SetInsertPoint(after);
            return;
        }
        case IRNodeType::Evaluate: codegen(s.as<Evaluate>()->value); return;
        case IRNodeType::Provide:
            internal_error << "Provide to " << s.as<Provide>()->name
                           << " reached codegen (storage flattening missed it)";
        case IRNodeType::Realize:
            internal_error << "Realize of " << s.as<Realize>()->name
                           << " reached codegen (storage flattening missed it)";
        default: internal_error << "codegen: not a statement node";
        }
    }

    void for_loop(const For *op) {
        llvm::Value *mn = codegen(op->min);
        llvm::Value *ext = codegen(op->extent);
        internal_assert(mn->getType()->isIntegerTy() && ext->getType() == mn->getType())
            << "For loop " << op->name << " needs integer min and extent of one type";
        if (op->for_type == ForType::Parallel) {
            parallel_loop(op, mn, ext);
            return;
        }
        // Serial loops, and Vectorized ones left serial by VectorizeLoops.
        llvm::Type *ty = mn->getType();
        llvm::BasicBlock *pre = b_.GetInsertBlock();
        llvm::BasicBlock *loop = new_block(op->name + "_loop");
        llvm::BasicBlock *after = new_block(op->name + "_end");
        llvm::Value *end = b_.CreateAdd(mn, ext, op->name + ".loop_end");
        b_.CreateCondBr(b_.CreateICmpSGT(ext, int_const(ty, 0)), loop, after);
        b_.SetInsertPoint(loop);
        llvm::PHINode *i = b_.CreatePHI(ty, 2, op->name);
        i->addIncoming(mn, pre);
        push(op->name, i);
        codegen(op->body);
        pop(op->name);
        llvm::Value *next = b_.CreateAdd(i, int_const(ty, 1));
        i->addIncoming(next, b_.GetInsertBlock());
        llvm::BranchInst *back_edge = b_.CreateCondBr(b_.CreateICmpNE(next, end), loop, after);
        if (op->for_type == ForType::Vectorized) {
            request_vectorization(back_edge, op);
        }
        b_.SetInsertPoint(after);
    }

    // A vectorized loop that VectorizeLoops could not widen (see there) is a
    // serial loop that asks LLVM's loop vectorizer for vectors as wide as it.
    void request_vectorization(llvm::BranchInst *back_edge, const For *op) {
        llvm::SmallVector<llvm::Metadata *, 4> md;
        md.push_back(nullptr); // self reference, set below
        md.push_back(llvm::MDNode::get(ctx_, {llvm::MDString::get(ctx_, "llvm.loop.vectorize.enable"),
                                              llvm::ConstantAsMetadata::get(b_.getTrue())}));
        if (const IntImm *width = op->extent.as<IntImm>()) {
            md.push_back(llvm::MDNode::get(ctx_, {llvm::MDString::get(ctx_, "llvm.loop.vectorize.width"),
                                                  llvm::ConstantAsMetadata::get(b_.getInt32((uint32_t)width->value))}));
        }
        llvm::MDNode *loop_id = llvm::MDNode::getDistinct(ctx_, md);
        loop_id->replaceOperandWith(0, loop_id);
        back_edge->setMetadata(llvm::LLVMContext::MD_loop, loop_id);
    }

    // Outlines the body into `int32 task(void *uc, int32 idx, uint8_t *closure)`
    // and runs it through halide_do_par_for.
    void parallel_loop(const For *op, llvm::Value *mn, llvm::Value *ext) {
        SymbolUses uses;
        uses.stmt(op->body);
        std::vector<std::pair<std::string, llvm::Value *>> captured;
        for (const std::string &n : uses.names) {
            if (n != op->name && n != kUserContext && has_sym(n)) {
                captured.emplace_back(n, sym(n));
            }
        }
        std::vector<llvm::Type *> field_types;
        for (const auto &c : captured) {
            field_types.push_back(c.second->getType());
        }
        llvm::StructType *closure_ty = llvm::StructType::get(ctx_, field_types);

        // The closure lives in the caller's frame (halide_do_par_for is synchronous).
        llvm::Function *caller = current_fn();
        llvm::IRBuilder<> entry_b(&caller->getEntryBlock(), caller->getEntryBlock().begin());
        llvm::Value *closure = entry_b.CreateAlloca(closure_ty, nullptr, op->name + ".closure");
        for (size_t i = 0; i < captured.size(); i++) {
            b_.CreateStore(captured[i].second, b_.CreateStructGEP(closure_ty, closure, (unsigned)i));
        }

        llvm::FunctionType *task_ty = llvm::FunctionType::get(i32_, {ptr_, i32_, ptr_}, false);
        std::string task_name = func_name_ + "_par_for_" + sanitize(op->name) + "_" + std::to_string(task_counter_++);
        llvm::Function *task = llvm::Function::Create(task_ty, llvm::Function::InternalLinkage, task_name, &module_);
        task->getArg(0)->setName(kUserContext);
        task->getArg(1)->setName(op->name);
        task->getArg(2)->setName("closure");

        // Generate the task with a fresh symbol table and allocation list.
        llvm::IRBuilderBase::InsertPoint saved_ip = b_.saveIP();
        std::map<std::string, std::vector<llvm::Value *>> saved_symbols;
        saved_symbols.swap(symbols_);
        std::vector<llvm::Value *> saved_allocations;
        saved_allocations.swap(live_allocations_);

        b_.SetInsertPoint(llvm::BasicBlock::Create(ctx_, "entry", task));
        for (size_t i = 0; i < captured.size(); i++) {
            llvm::Value *addr = b_.CreateStructGEP(closure_ty, task->getArg(2), (unsigned)i);
            push(captured[i].first, b_.CreateLoad(field_types[i], addr, captured[i].first));
        }
        push(kUserContext, task->getArg(0));
        llvm::Value *idx = b_.CreateIntCast(task->getArg(1), mn->getType(), true);
        push(op->name, idx);
        codegen(op->body);
        b_.CreateRet(llvm::ConstantInt::get(i32_, 0));

        symbols_.swap(saved_symbols);
        live_allocations_.swap(saved_allocations);
        b_.restoreIP(saved_ip);

        llvm::FunctionCallee do_par_for = runtime_fn("halide_do_par_for", i32_, {ptr_, ptr_, i32_, i32_, ptr_});
        llvm::Value *rc = b_.CreateCall(do_par_for, {sym(kUserContext), task, b_.CreateIntCast(mn, i32_, true),
                                                     b_.CreateIntCast(ext, i32_, true), closure});
        llvm::BasicBlock *fail = new_block(op->name + "_par_for_failed");
        llvm::BasicBlock *ok = new_block(op->name + "_par_for_done");
        branch_likely(b_.CreateICmpEQ(rc, llvm::ConstantInt::get(i32_, 0)), ok, fail);
        b_.SetInsertPoint(fail);
        emit_return(rc);
        b_.SetInsertPoint(ok);
    }

    void allocate(const Allocate *op) {
        llvm::Value *bytes = int_const(i64_, op->type.bytes());
        for (const Expr &e : op->extents) {
            bytes = b_.CreateMul(bytes, to_i64(codegen(e), e.type()));
        }
        // A zero-byte request may legally return NULL; ask for one byte instead.
        llvm::Value *is_empty = b_.CreateICmpEQ(bytes, int_const(i64_, 0));
        llvm::Value *request = b_.CreateSelect(is_empty, int_const(i64_, 1), bytes, op->name + ".bytes");
        llvm::FunctionCallee malloc_fn = runtime_fn("halide_malloc", ptr_, {ptr_, i64_});
        if (auto *f = llvm::dyn_cast<llvm::Function>(malloc_fn.getCallee())) {
            f->addRetAttr(llvm::Attribute::NoAlias);
        }
        llvm::Value *uc = sym(kUserContext);
        llvm::Value *p = b_.CreateCall(malloc_fn, {uc, request}, op->name + ".host");
        llvm::BasicBlock *fail = new_block(op->name + "_alloc_failed");
        llvm::BasicBlock *ok = new_block(op->name + "_alloc_ok");
        branch_likely(b_.CreateIsNotNull(p), ok, fail);
        b_.SetInsertPoint(fail);
        llvm::FunctionCallee oom = runtime_fn("halide_error_out_of_memory", i32_, {ptr_});
        emit_return(b_.CreateCall(oom, {uc}));
        b_.SetInsertPoint(ok);

        push(op->name + ".host", p);
        live_allocations_.push_back(p);
        codegen(op->body);
        live_allocations_.pop_back();
        pop(op->name + ".host");
        llvm::FunctionCallee free_fn = runtime_fn("halide_free", llvm::Type::getVoidTy(ctx_), {ptr_, ptr_});
        b_.CreateCall(free_fn, {sym(kUserContext), p});
    }
};

std::string verify(const llvm::Module &m) {
    std::string msg;
    llvm::raw_string_ostream os(msg);
    if (llvm::verifyModule(m, &os)) {
        os.flush();
        return msg.empty() ? std::string("(no message)") : msg;
    }
    return std::string();
}

} // namespace

std::unique_ptr<llvm::Module> codegen_multitarget_wrapper(const LoweredFunc &f,
                                                          const std::vector<MultitargetVariant> &variants,
                                                          llvm::LLVMContext &ctx, const std::string &target_triple,
                                                          const std::string &cpu, const std::string &features,
                                                          const std::string &metadata_target) {
    init_llvm_targets_once();
    std::string err;
    const llvm::Target *target = llvm::TargetRegistry::lookupTarget(target_triple, err);
    internal_assert(target) << "no LLVM target for " << target_triple << ": " << err;
    llvm::TargetOptions options;
    std::unique_ptr<llvm::TargetMachine> tm(target->createTargetMachine(
        target_triple, cpu, features, options, llvm::Reloc::PIC_, std::nullopt, llvm::CodeGenOptLevel::Default));
    auto module = std::make_unique<llvm::Module>(f.name, ctx);
    module->setTargetTriple(target_triple);
    module->setDataLayout(tm->createDataLayout());
    CodeGen cg(ctx, *module);
    cg.compile_dispatcher(f, variants, metadata_target);
    std::string problem = verify(*module);
    internal_assert(problem.empty()) << "invalid multitarget wrapper for " << f.name << ":\n" << problem;
    return module;
}

std::unique_ptr<llvm::Module> codegen_llvm(const LoweredFunc &f, llvm::LLVMContext &ctx,
                                           const std::string &target_triple, const std::string &cpu,
                                           const std::string &features, const std::string &metadata_target) {
    init_llvm_targets_once();
    internal_assert(!f.name.empty()) << "codegen_llvm: the function has no name";
    internal_assert(f.body.defined()) << "codegen_llvm: " << f.name << " has no body";

    std::string triple = target_triple.empty() ? llvm::sys::getProcessTriple() : target_triple;
    std::string err;
    const llvm::Target *target = llvm::TargetRegistry::lookupTarget(triple, err);
    internal_assert(target) << "codegen_llvm: no LLVM target for " << triple << ": " << err;
    llvm::TargetOptions options;
    std::unique_ptr<llvm::TargetMachine> tm(target->createTargetMachine(
        triple, cpu, features, options, llvm::Reloc::PIC_, std::nullopt, llvm::CodeGenOptLevel::Aggressive));
    internal_assert(tm) << "codegen_llvm: could not create a target machine for " << triple;

    auto module = std::make_unique<llvm::Module>(f.name, ctx);
    module->setTargetTriple(triple);
    module->setDataLayout(tm->createDataLayout());

    CodeGen cg(ctx, *module);
    cg.compile(f, metadata_target.empty() ? nullptr : &metadata_target);

    std::string problem = verify(*module);
    internal_assert(problem.empty()) << "codegen_llvm produced invalid LLVM IR for " << f.name << ":\n" << problem;

    {
        // The analysis managers must be destroyed in this reverse order.
        llvm::LoopAnalysisManager lam;
        llvm::FunctionAnalysisManager fam;
        llvm::CGSCCAnalysisManager cgam;
        llvm::ModuleAnalysisManager mam;
        llvm::PipelineTuningOptions pto;
        pto.LoopVectorization = true;
        // No SLP vectorizer: LLVM 19's minimum-bit-width analysis drops the
        // sign extension in sext-then-uitofp chains (an int8 widened to
        // uint16 then converted to float became a zero-extended uitofp),
        // changing results. Vector code comes from our own vectorize pass.
        pto.SLPVectorization = false;
        pto.LoopUnrolling = true;
        llvm::PassBuilder pb(tm.get(), pto);
        pb.registerModuleAnalyses(mam);
        pb.registerCGSCCAnalyses(cgam);
        pb.registerFunctionAnalyses(fam);
        pb.registerLoopAnalyses(lam);
        pb.crossRegisterProxies(lam, fam, cgam, mam);
        llvm::ModulePassManager mpm = pb.buildPerModuleDefaultPipeline(llvm::OptimizationLevel::O3);
        mpm.run(*module, mam);
    }

    problem = verify(*module);
    internal_assert(problem.empty()) << "LLVM optimization broke the module for " << f.name << ":\n" << problem;
    return module;
}

} // namespace Internal
} // namespace Halide
