define amdgpu_ps void @main(<4 x float> inreg %in0) {
entry:
  %x0 = extractelement <4 x float> %in0, i32 0
  %y0 = extractelement <4 x float> %in0, i32 1
  %z0 = extractelement <4 x float> %in0, i32 2
  %w0 = extractelement <4 x float> %in0, i32 3
  %p = getelementptr <4 x float>, ptr addrspace(8) null, i32 2
  %c = load <4 x float>, ptr addrspace(8) %p
  %q = getelementptr <4 x float>, ptr addrspace(8) null, i32 5
  %d = load <4 x float>, ptr addrspace(8) %q
  %e = fmul <4 x float> %c, %in0
  %out = fadd <4 x float> %e, %d
  call void @llvm.r600.store.swizzle(<4 x float> %out, i32 0, i32 0)
  ret void
}
declare void @llvm.r600.store.swizzle(<4 x float>, i32, i32)
