define amdgpu_ps void @main(<4 x float> inreg %in0) {
entry:
  %x0 = extractelement <4 x float> %in0, i32 0
  %y0 = extractelement <4 x float> %in0, i32 1
  %z0 = extractelement <4 x float> %in0, i32 2
  %w0 = extractelement <4 x float> %in0, i32 3
  %arr = alloca [4 x float], addrspace(5)
  %n = fptosi float %x0 to i32
  %k = and i32 %n, 3
  %p0 = getelementptr [4 x float], ptr addrspace(5) %arr, i32 0, i32 0
  store float %y0, ptr addrspace(5) %p0
  %p1 = getelementptr [4 x float], ptr addrspace(5) %arr, i32 0, i32 1
  store float %z0, ptr addrspace(5) %p1
  %p2 = getelementptr [4 x float], ptr addrspace(5) %arr, i32 0, i32 2
  store float %w0, ptr addrspace(5) %p2
  %p3 = getelementptr [4 x float], ptr addrspace(5) %arr, i32 0, i32 3
  store float %x0, ptr addrspace(5) %p3
  %pk = getelementptr [4 x float], ptr addrspace(5) %arr, i32 0, i32 %k
  store float 9.0, ptr addrspace(5) %pk
  %v = load float, ptr addrspace(5) %p1
  %v2 = load float, ptr addrspace(5) %p3
  %out_v0 = insertelement <4 x float> undef, float %v, i32 0
  %out_v1 = insertelement <4 x float> %out_v0, float %v2, i32 1
  %out_v2 = insertelement <4 x float> %out_v1, float %y0, i32 2
  %out = insertelement <4 x float> %out_v2, float %z0, i32 3
  call void @llvm.r600.store.swizzle(<4 x float> %out, i32 0, i32 0)
  ret void
}
declare void @llvm.r600.store.swizzle(<4 x float>, i32, i32)
