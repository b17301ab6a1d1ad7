; An HS (LS+HS) wave storing v0 + its first user SGPR (s8) to the buffer whose address is in
; s[9:10]: one dword per lane at offset 4 * v0.
define amdgpu_hs void @main(i32 inreg %s0, i32 inreg %s1, i32 inreg %s2, i32 inreg %s3, i32 inreg %s4, i32 inreg %s5, i32 inreg %s6, i32 inreg %s7, i32 inreg %u, i32 inreg %lo, i32 inreg %hi, i32 %v0) {
  %l = zext i32 %lo to i64
  %h = zext i32 %hi to i64
  %hs = shl i64 %h, 32
  %a = or i64 %hs, %l
  %p = inttoptr i64 %a to ptr addrspace(1)
  %q = getelementptr inbounds i32, ptr addrspace(1) %p, i32 %v0
  %v = add i32 %v0, %u
  store i32 %v, ptr addrspace(1) %q, align 4
  ret void
}
