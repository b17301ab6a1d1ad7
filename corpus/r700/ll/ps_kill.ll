define amdgpu_ps void @main(<4 x float> inreg %in0) {
  %a = extractelement <4 x float> %in0, i32 0
  %b = fsub float %a, 0.5
  call void @llvm.r600.kill(float %b)
  call void @llvm.r600.store.swizzle(<4 x float> %in0, i32 0, i32 0)
  ret void
}
declare void @llvm.r600.kill(float)
declare void @llvm.r600.store.swizzle(<4 x float>, i32, i32)
