// Listing edge cases for tests/disasm_listing.rs. Rebuild:
//   llvm-mc-19 -arch=amdgcn -mcpu=gfx1100 -filetype=obj edges.s -o edges.o
//   llvm-objdump-19 -d --mcpu=gfx1100 edges.o | sed -n '/^Disassembly/,$p' > edges.objdump
.text
.globl a
a:
  s_nop 0
  // A VOP3 instruction whose second dword lies in the next symbol: objdump decodes it whole
  // for `a`, then lists `b` from its own address again.
  .long 0xD5320001
.globl b
b:
  .long 0x00020702
  s_branch a
  // A VOP3 cut off by the end of the section, then two stray bytes.
  .long 0xD5030001
  .byte 0x02, 0x07
