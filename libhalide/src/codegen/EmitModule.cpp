// See EmitModule.h.
#include "codegen/EmitModule.h"

#include <memory>

#include "Halide/Error.h"
#include "codegen/CodeGen_LLVM.h"
#include "codegen/LLVMTarget.h"
#include "codegen/LLVM_Headers.h"

namespace Halide {
namespace Internal {

namespace {

std::string emit_with(llvm::TargetMachine &tm, llvm::Module &m, llvm::CodeGenFileType kind) {
    llvm::SmallString<0> bytes;
    llvm::raw_svector_ostream os(bytes);
    llvm::legacy::PassManager pm;
    internal_assert(!tm.addPassesToEmitFile(pm, os, nullptr, kind))
        << "LLVM cannot emit this file type for " << m.getTargetTriple();
    pm.run(m);
    return std::string(bytes.data(), bytes.size());
}

} // namespace

EmittedModule emit_module(const LoweredFunc &f, const Target &t, const EmitRequest &what) {
    return emit_module(std::vector<LoweredFunc>{f}, t, what);
}

EmittedModule emit_module(const std::vector<LoweredFunc> &fs, const Target &t, const EmitRequest &what) {
    internal_assert(!fs.empty()) << "emit_module: no function";
    LLVMTargetSpec spec = llvm_target_for(t);
    llvm::LLVMContext ctx;
    std::unique_ptr<llvm::Module> m;
    for (const LoweredFunc &f : fs) {
        std::unique_ptr<llvm::Module> one =
            codegen_llvm(f, ctx, spec.triple, spec.cpu, spec.features, with_implied_features(t).to_string());
        if (what.hidden_entry) {
            one->getFunction(f.name)->setVisibility(llvm::GlobalValue::HiddenVisibility);
        }
        if (!m) {
            m = std::move(one);
        } else {
            // Their private helpers may share names: the linker renames those.
            bool failed = llvm::Linker::linkModules(*m, std::move(one));
            user_assert(!failed) << "Cannot link function " << f.name << " into module " << fs[0].name
                                 << ": a symbol is defined twice";
        }
    }
    if (!spec.tune.empty()) {
        for (llvm::Function &fn : *m) {
            if (!fn.isDeclaration()) {
                fn.addFnAttr("tune-cpu", spec.tune);
            }
        }
    }
    EmittedModule out;
    if (what.llvm_assembly) {
        llvm::raw_string_ostream os(out.llvm_assembly);
        m->print(os, nullptr);
    }
    if (what.bitcode) {
        llvm::SmallString<0> bytes;
        llvm::raw_svector_ostream os(bytes);
        llvm::WriteBitcodeToFile(*m, os);
        out.bitcode.assign(bytes.data(), bytes.size());
    }
    if (what.object || what.assembly) {
        std::string err;
        const llvm::Target *target = llvm::TargetRegistry::lookupTarget(spec.triple, err);
        internal_assert(target) << "no LLVM target for " << spec.triple << ": " << err;
        llvm::TargetOptions options;
        std::unique_ptr<llvm::TargetMachine> tm(target->createTargetMachine(spec.triple, spec.cpu, spec.features,
                                                                            options, llvm::Reloc::PIC_, std::nullopt,
                                                                            llvm::CodeGenOptLevel::Aggressive));
        internal_assert(tm) << "cannot create an LLVM target machine for " << spec.triple;
        if (what.object) {
            out.object = emit_with(*tm, *m, llvm::CodeGenFileType::ObjectFile);
        }
        if (what.assembly) {
            out.assembly = emit_with(*tm, *m, llvm::CodeGenFileType::AssemblyFile);
        }
    }
    return out;
}

std::string emit_multitarget_wrapper(const LoweredFunc &f, const std::vector<std::string> &variant_functions,
                                     const std::vector<Target> &variant_targets, const Target &base,
                                     const std::string &metadata_target) {
    LLVMTargetSpec spec = llvm_target_for(base);
    std::vector<MultitargetVariant> variants;
    for (size_t i = 0; i < variant_functions.size(); i++) {
        MultitargetVariant v;
        v.function = variant_functions[i];
        const auto &bits = variant_targets[i].get_features_bitset();
        v.feature_words.assign((bits.size() + 63) / 64, 0);
        for (size_t k = 0; k < bits.size(); k++) {
            if (bits[k]) {
                v.feature_words[k / 64] |= uint64_t(1) << (k % 64);
            }
        }
        variants.push_back(v);
    }
    llvm::LLVMContext ctx;
    std::unique_ptr<llvm::Module> m =
        codegen_multitarget_wrapper(f, variants, ctx, spec.triple, spec.cpu, spec.features, metadata_target);
    std::string err;
    const llvm::Target *target = llvm::TargetRegistry::lookupTarget(spec.triple, err);
    internal_assert(target) << "no LLVM target for " << spec.triple << ": " << err;
    llvm::TargetOptions options;
    std::unique_ptr<llvm::TargetMachine> tm(target->createTargetMachine(spec.triple, spec.cpu, spec.features, options,
                                                                        llvm::Reloc::PIC_, std::nullopt,
                                                                        llvm::CodeGenOptLevel::Default));
    return emit_with(*tm, *m, llvm::CodeGenFileType::ObjectFile);
}

std::string make_archive(const std::vector<std::pair<std::string, std::string>> &members) {
    std::vector<llvm::NewArchiveMember> news;
    for (const auto &[name, bytes] : members) {
        llvm::NewArchiveMember m(llvm::MemoryBufferRef(llvm::StringRef(bytes.data(), bytes.size()), name));
        m.MemberName = name;
        news.push_back(std::move(m));
    }
    llvm::Expected<std::unique_ptr<llvm::MemoryBuffer>> archive =
        llvm::writeArchiveToBuffer(news, llvm::SymtabWritingMode::NormalSymtab, llvm::object::Archive::K_GNU,
                                   /*Deterministic=*/true, /*Thin=*/false);
    if (!archive) {
        std::string msg = llvm::toString(archive.takeError());
        internal_error << "cannot write a static library: " << msg;
    }
    return std::string((*archive)->getBufferStart(), (*archive)->getBufferSize());
}

} // namespace Internal
} // namespace Halide
