// Code generation from the lowered IR to LLVM IR: the module drivers
// (codegen_llvm, codegen_multitarget_wrapper: target machine, verification,
// the O3 pipeline) and the core of the CodeGen_LLVM class every other
// CodeGen_LLVM_*.cpp file builds on: LLVM types, the symbol table, shared
// helpers, and the expression and statement dispatch. The class is declared
// in CodeGen_LLVM_Internal.h, which lists where each group of members lives.
#include "codegen/CodeGen_LLVM.h"

#include <mutex>

#include "Halide/Error.h"
#include "Halide/IR.h"
#include "codegen/CodeGen_LLVM_Internal.h"

#include "codegen/LLVM_Headers.h"
#include <functional>

namespace Halide {
namespace Internal {

namespace {

// LLVM's loop strength reduction picks, for each loop, how its addresses
// step: by default it gives up searching past 65,535 combinations of
// candidate formulae and narrows them by heuristics. A vector loop of a
// stencil (Sobel: nine loads and a store from three rows) behind a
// partitioned boundary condition exceeds that, and the narrowed choice
// steps each of four pointers and a separate counter (four more
// instructions per vector than the same loop on a pre-padded input, whose
// search stays under the limit). Past 4M combinations the heuristics still
// apply, so the search stays bounded. Left alone where the host program
// set the option itself.
void widen_loop_strength_reduction_search() {
    llvm::StringMap<llvm::cl::Option *> &options = llvm::cl::getRegisteredOptions();
    auto it = options.find("lsr-complexity-limit");
    if (it != options.end() && it->second->getNumOccurrences() == 0) {
        it->second->addOccurrence(0, "lsr-complexity-limit", "4194304");
    }
}

// LLVM's machine-level loop-invariant code motion (MachineLICM), where it
// estimates a loop nest's register pressure as high, hoists nothing that
// does not run on every iteration of the outermost loop ("avoid-speculation"),
// not even a load of a constant that the register allocator could load again
// where registers run out. A tiled stencil's consumer loop, in the same tile
// loop as a producer with partitioned edges (many vector values), then
// broadcast its two constants from memory on every vector: the 5x5
// Gaussian's with mirror_interior took 36 instructions per vector against
// 34 on a pre-padded input (278,000 per 1920x1080 realization). Without the
// restriction, under high pressure it hoists only what the register
// allocator can rematerialize (constants, invariant loads) and copies, as
// MachineLICM's own rule; speculating those is safe. Left alone where the
// host program set the option itself.
void hoist_rematerializable_out_of_loops() {
    llvm::StringMap<llvm::cl::Option *> &options = llvm::cl::getRegisteredOptions();
    auto it = options.find("avoid-speculation");
    if (it != options.end() && it->second->getNumOccurrences() == 0) {
        it->second->addOccurrence(0, "avoid-speculation", "false");
    }
}

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
        LLVMInitializeARMTargetInfo();
        LLVMInitializeARMTarget();
        LLVMInitializeARMTargetMC();
        LLVMInitializeARMAsmPrinter();
        widen_loop_strength_reduction_search();
        hoist_rematerializable_out_of_loops();
    });
}

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

CodeGen_LLVM::CodeGen_LLVM(llvm::LLVMContext &ctx, llvm::Module &module) : ctx_(ctx), module_(module), b_(ctx) {
    i1_ = llvm::Type::getInt1Ty(ctx);
    i8_ = llvm::Type::getInt8Ty(ctx);
    i32_ = llvm::Type::getInt32Ty(ctx);
    i64_ = llvm::Type::getInt64Ty(ctx);
    ptr_ = llvm::PointerType::get(ctx, 0);
    size_t_ = module.getDataLayout().getIntPtrType(ctx);
    layout_ = runtime_layout(module.getDataLayout(), ctx);
}

std::string CodeGen_LLVM::sanitize(const std::string &s) {
    std::string r = s;
    for (char &c : r) {
        bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
        if (!ok) {
            c = '_';
        }
    }
    return r;
}

llvm::Type *CodeGen_LLVM::scalar_type(const Type &t) {
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

llvm::Type *CodeGen_LLVM::reg_type(const Type &t) {
    internal_assert(t.bits() > 0) << "codegen of an expression with no type";
    llvm::Type *s = scalar_type(t);
    return t.lanes() > 1 ? llvm::FixedVectorType::get(s, t.lanes()) : s;
}

llvm::Type *CodeGen_LLVM::mem_type(const Type &t) {
    if (t.is_bool()) {
        return t.lanes() > 1 ? llvm::FixedVectorType::get(i8_, t.lanes()) : i8_;
    }
    return reg_type(t);
}

void CodeGen_LLVM::pop(const std::string &name) {
    auto it = symbols_.find(name);
    internal_assert(it != symbols_.end() && !it->second.empty()) << "popping unbound symbol " << name;
    it->second.pop_back();
    if (it->second.empty()) {
        symbols_.erase(it);
    }
}

llvm::Value *CodeGen_LLVM::sym(const std::string &name) {
    auto it = symbols_.find(name);
    internal_assert(it != symbols_.end() && !it->second.empty()) << "Symbol not found in codegen: " << name;
    return it->second.back();
}

llvm::FunctionCallee CodeGen_LLVM::runtime_fn(const std::string &name, llvm::Type *ret,
                                              std::vector<llvm::Type *> args) {
    llvm::FunctionType *ft = llvm::FunctionType::get(ret, args, false);
    if (llvm::Function *existing = module_.getFunction(name)) {
        internal_assert(existing->getFunctionType() == ft)
            << "function " << name << " is called with two different signatures";
    }
    return module_.getOrInsertFunction(name, ft);
}

void CodeGen_LLVM::branch_likely(llvm::Value *cond, llvm::BasicBlock *likely_bb, llvm::BasicBlock *unlikely_bb) {
    llvm::MDBuilder md(ctx_);
    b_.CreateCondBr(cond, likely_bb, unlikely_bb, md.createBranchWeights(1u << 20, 1));
}

llvm::Value *CodeGen_LLVM::branch_value(llvm::Value *cond, bool likely, const std::string &name,
                                        const std::function<llvm::Value *()> &then_value,
                                        const std::function<llvm::Value *()> &else_value) {
    llvm::BasicBlock *then_bb = new_block(name + "_then"), *else_bb = new_block(name + "_else");
    llvm::BasicBlock *done = new_block(name + "_done");
    if (likely) {
        branch_likely(cond, then_bb, else_bb);
    } else {
        b_.CreateCondBr(cond, then_bb, else_bb);
    }
    b_.SetInsertPoint(then_bb);
    llvm::Value *a = then_value();
    llvm::BasicBlock *then_end = b_.GetInsertBlock();
    b_.CreateBr(done);
    b_.SetInsertPoint(else_bb);
    llvm::Value *b = else_value();
    llvm::BasicBlock *else_end = b_.GetInsertBlock();
    b_.CreateBr(done);
    b_.SetInsertPoint(done);
    llvm::PHINode *phi = b_.CreatePHI(a->getType(), 2);
    phi->addIncoming(a, then_end);
    phi->addIncoming(b, else_end);
    return phi;
}

void CodeGen_LLVM::emit_return(llvm::Value *code) {
    for (auto it = live_allocations_.rbegin(); it != live_allocations_.rend(); ++it) {
        llvm::FunctionCallee free_fn = runtime_fn(it->second, llvm::Type::getVoidTy(ctx_), {ptr_, ptr_});
        b_.CreateCall(free_fn, {sym(kUserContext), it->first});
    }
    b_.CreateRet(code);
}

llvm::Value *CodeGen_LLVM::to_i32(llvm::Value *v, const Type &t) {
    if (v->getType() == i32_) {
        return v;
    }
    return b_.CreateIntCast(v, i32_, t.is_int());
}

llvm::Value *CodeGen_LLVM::to_i64(llvm::Value *v, const Type &t) {
    if (v->getType() == i64_) {
        return v;
    }
    return b_.CreateIntCast(v, i64_, !t.is_uint());
}

llvm::Value *CodeGen_LLVM::fit(llvm::Value *v, const Type &t) {
    llvm::Type *want = reg_type(t);
    if (v->getType() == want) {
        return v;
    }
    internal_assert(v->getType()->isIntegerTy() && want->isIntegerTy()) << "intrinsic result type mismatch";
    return b_.CreateIntCast(v, want, t.is_int());
}

llvm::Constant *CodeGen_LLVM::string_constant(const std::string &s) {
    auto it = strings_.find(s);
    if (it != strings_.end()) {
        return it->second;
    }
    llvm::Constant *data = llvm::ConstantDataArray::getString(ctx_, s, true);
    auto *gv =
        new llvm::GlobalVariable(module_, data->getType(), true, llvm::GlobalValue::PrivateLinkage, data, ".str");
    gv->setUnnamedAddr(llvm::GlobalValue::UnnamedAddr::Global);
    gv->setAlignment(llvm::Align(4)); // a string cast to a handle is a pointer aligned as upstream's (to 4)
    strings_[s] = gv;
    return gv;
}

llvm::Value *CodeGen_LLVM::codegen(const Expr &e) {
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
        push_data_let(op->name, op->value);
        llvm::Value *r = codegen(op->body);
        pop_data_let(op->name);
        pop(op->name);
        return r;
    }
    default: internal_error << "codegen: not an expression node";
    }
}

void CodeGen_LLVM::codegen(const Stmt &s) {
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
        push_data_let(op->name, op->value);
        std::vector<std::string> row_pointers = push_row_pointers(op);
        codegen(op->body);
        for (const std::string &name : row_pointers) {
            pop(name);
        }
        pop_index_let(op->name);
        pop_data_let(op->name);
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
        if (is_async_fork(op)) {
            return async_fork(op);
        }
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
    case IRNodeType::Atomic: return atomic(s.as<Atomic>());
    case IRNodeType::ProducerConsumer: return codegen(s.as<ProducerConsumer>()->body); // a mark only
    case IRNodeType::Provide:
        internal_error << "Provide to " << s.as<Provide>()->name << " reached codegen (storage flattening missed it)";
    case IRNodeType::Realize:
        internal_error << "Realize of " << s.as<Realize>()->name << " reached codegen (storage flattening missed it)";
    default: internal_error << "codegen: not a statement node";
    }
}

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
    CodeGen_LLVM cg(ctx, *module);
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

    CodeGen_LLVM cg(ctx, *module);
    cg.set_target_features(features);
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
        // LLVM's loop vectorizer widens only the loops that ask for it
        // (request_vectorization: a vectorized loop VectorizeLoops left
        // serial); every other loop keeps the shape its schedule gave it,
        // as upstream Halide's do unless the target has
        // enable_llvm_loop_opt. Widening every scalar loop it could (with
        // scalar tails and runtime overlap checks) made LLVM's passes most
        // of the JIT compile time of small pipelines (tests/differential),
        // for no speed where the schedule vectorizes: the benchmarks'
        // kernels come out the same but for a tone curve's table and the
        // local Laplacian's coarse levels, which their schedules leave
        // scalar (and upstream's code is scalar there too).
        pto.LoopVectorization = false;
        // No SLP vectorizer: LLVM 19's minimum-bit-width analysis drops the
        // sign extension in sext-then-uitofp chains (an int8 widened to
        // uint16 then converted to float became a zero-extended uitofp),
        // changing results. Vector code comes from our own vectorize pass.
        pto.SLPVectorization = false;
        // Unrolling stays: the stencils' partitioned loops of constant
        // extent rely on it. After unrolling a loop, LLVM forgets all it
        // knows of every loop's scalar evolution rather than working out
        // what the unrolled loop changed, which is much cheaper where
        // loop nests are deep (as upstream Halide sets it).
        pto.LoopUnrolling = true;
        pto.ForgetAllSCEVInLoopUnroll = true;
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
