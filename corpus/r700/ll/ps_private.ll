define amdgpu_ps void @main(<4 x float> inreg %in0) {
  %arr = alloca [8 x float], addrspace(5)
  %a = extractelement <4 x float> %in0, i32 0
  %i = fptosi float %a to i32
  %b = extractelement <4 x float> %in0, i32 1
  %j = fptosi float %b to i32
  %p = getelementptr [8 x float], ptr addrspace(5) %arr, i32 0, i32 %i
  store float %a, ptr addrspace(5) %p
  %q = getelementptr [8 x float], ptr addrspace(5) %arr, i32 0, i32 %j
  %v = load float, ptr addrspace(5) %q
  %r = insertelement <4 x float> %in0, float %v, i32 2
  call void @llvm.r600.store.swizzle(<4 x float> %r, i32 0, i32 0)
  ret void
}
declare void @llvm.r600.store.swizzle(<4 x float>, i32, i32)
