// Codelet file kinds: the extension table that getCodeletFileType, getExtensionFromFileType and getLanguageOption
// share, so the three always agree.
#include "poplar/CodeletFileType.hpp"

#include <cstring>

#include "poplar/exceptions.hpp"

namespace poplar {

namespace {

struct KindRow {
  CodeletFileType type;
  const char *extension; // the usual one, first in the table for its kind
  const char *language;  // clang's -x name; null: not compiled
};

const KindRow kinds[] = {
    {CodeletFileType::PreprocessedAsmSource, ".s", "assembler"},
    {CodeletFileType::AsmSource, ".S", "assembler-with-cpp"},
    {CodeletFileType::CSource, ".c", "c"},
    {CodeletFileType::CppSource, ".cpp", "c++"},
    {CodeletFileType::CppSource, ".cc", "c++"},
    {CodeletFileType::CppSource, ".cxx", "c++"},
    {CodeletFileType::CppSource, ".C", "c++"},
    {CodeletFileType::IrSource, ".ll", "ir"},
    {CodeletFileType::IrSource, ".bc", "ir"},
    {CodeletFileType::Object, ".gp", nullptr},
    {CodeletFileType::Object, ".o", nullptr},
};

const KindRow *first(CodeletFileType type) {
  for (const KindRow &k : kinds)
    if (k.type == type)
      return &k;
  return nullptr;
}

} // namespace

CodeletFileType getCodeletFileType(const char *path) {
  if (!path)
    throw poplar_error("getCodeletFileType: the path is a null pointer; pass the codelet file's name");
  const char *dot = std::strrchr(path, '.');
  const char *slash = std::strrchr(path, '/');
  if (dot && (!slash || dot > slash))
    for (const KindRow &k : kinds)
      if (std::strcmp(dot, k.extension) == 0)
        return k.type;
  throw poplar_error(std::string("getCodeletFileType: cannot tell the kind of codelet file '") + path +
                     "' from its extension; name it .cpp/.cc/.cxx/.C (C++), .c (C), .s/.S (assembly), .ll/.bc "
                     "(LLVM IR) or .gp/.o (object), or pass the CodeletFileType to Graph::addCodelets");
}

std::string getExtensionFromFileType(CodeletFileType type) {
  if (const KindRow *k = first(type))
    return k->extension;
  throw poplar_error("getExtensionFromFileType: CodeletFileType::Auto has no extension; pass the file's actual kind");
}

std::string getLanguageOption(CodeletFileType type) {
  const KindRow *k = first(type);
  if (!k || !k->language)
    throw poplar_error(std::string("getLanguageOption: CodeletFileType::") +
                       (type == CodeletFileType::Auto ? "Auto" : "Object") +
                       " has no source language; pass a source kind (CppSource, CSource, AsmSource, "
                       "PreprocessedAsmSource or IrSource)");
  return k->language;
}

} // namespace poplar
