define amdgpu_ps void @main(<4 x float> inreg %in0, <4 x float> inreg %in1) {
  %d = call float @llvm.r600.dot4(<4 x float> %in0, <4 x float> %in1)
  %c = call <4 x float> @llvm.r600.cube(<4 x float> %in1)
  %r = insertelement <4 x float> %c, float %d, i32 3
  call void @llvm.r600.store.swizzle(<4 x float> %r, i32 0, i32 0)
  ret void
}
declare float @llvm.r600.dot4(<4 x float>, <4 x float>)
declare <4 x float> @llvm.r600.cube(<4 x float>)
declare void @llvm.r600.store.swizzle(<4 x float>, i32, i32)
