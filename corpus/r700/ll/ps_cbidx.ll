define amdgpu_ps void @main(<4 x float> inreg %in0) {
  %a = extractelement <4 x float> %in0, i32 0
  %i0 = fptosi float %a to i32
  %i = and i32 %i0, 15
  %p = getelementptr <4 x float>, ptr addrspace(8) null, i32 %i
  %v = load <4 x float>, ptr addrspace(8) %p
  call void @llvm.r600.store.swizzle(<4 x float> %v, i32 0, i32 0)
  ret void
}
declare void @llvm.r600.store.swizzle(<4 x float>, i32, i32)
