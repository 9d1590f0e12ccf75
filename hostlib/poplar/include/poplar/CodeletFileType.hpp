// The kinds of codelet file Graph::addCodelets() reads, and how a kind is told from a file name, in the header of
// the same path as the SDK's. This emulator compiles C++ codelets and loads popc's .gp objects; addCodelets()
// refuses the other kinds by name (see Graph::addCodelets).
#ifndef POPLAR_CODELET_FILE_TYPE_HPP
#define POPLAR_CODELET_FILE_TYPE_HPP

#include <string>

namespace poplar {

/// A codelet file's kind (the extension getCodeletFileType() maps to it in brackets).
enum class CodeletFileType {
  PreprocessedAsmSource, ///< assembly with no preprocessor lines left (.s)
  AsmSource,             ///< assembly that goes through the C preprocessor first (.S)
  CSource,               ///< C source (.c)
  CppSource,             ///< C++ source (.cpp, .cc, .cxx, .C)
  IrSource,              ///< LLVM IR (.ll, .bc)
  Object,                ///< a compiled codelet object, as popc writes it (.gp, .o)
  Auto                   ///< decided from the file name by getCodeletFileType()
};

/// The kind of codelet file `path` names, from its extension. Throws poplar_error for an extension that is none of
/// the above, naming it.
CodeletFileType getCodeletFileType(const char *path);
/// The usual extension of a kind (".s", ".S", ".c", ".cpp", ".ll", ".gp"). Throws poplar_error for Auto.
std::string getExtensionFromFileType(CodeletFileType type);
/// The compiler's -x language of a source kind ("assembler", "assembler-with-cpp", "c", "c++", "ir"). Throws
/// poplar_error for Object and Auto, which are not compiled.
std::string getLanguageOption(CodeletFileType type);

} // namespace poplar

#endif // POPLAR_CODELET_FILE_TYPE_HPP
