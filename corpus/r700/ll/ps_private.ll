; Indices are limited to 0..3: for indices 6 and 7, llc-19 bundles the AR-relative write T(0 + AR.x)
; with reads of T10/T11 in the same instruction group, which per the R700 ISA reference (4.7, all
; operands of a group are read before any result is written) read the old values; LLVM expects the new.
define amdgpu_ps void @main(<4 x float> inreg %in0) {
  %arr = alloca [8 x float], addrspace(5)
  %a = extractelement <4 x float> %in0, i32 0
  %i0 = fptosi float %a to i32
  %i = and i32 %i0, 3
  %b = extractelement <4 x float> %in0, i32 1
  %j0 = fptosi float %b to i32
  %j = and i32 %j0, 3
  %p = getelementptr [8 x float], ptr addrspace(5) %arr, i32 0, i32 %i
  store float %a, ptr addrspace(5) %p
  %q = getelementptr [8 x float], ptr addrspace(5) %arr, i32 0, i32 %j
  store float %b, ptr addrspace(5) %q
  %v = load float, ptr addrspace(5) %p
  %r = insertelement <4 x float> %in0, float %v, i32 2
  call void @llvm.r600.store.swizzle(<4 x float> %r, i32 0, i32 0)
  ret void
}
declare void @llvm.r600.store.swizzle(<4 x float>, i32, i32)
