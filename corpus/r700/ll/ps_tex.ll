define amdgpu_ps void @main(<4 x float> inreg %in0) {
  %t = call <4 x float> @llvm.r600.tex(<4 x float> %in0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 1, i32 1)
  call void @llvm.r600.store.swizzle(<4 x float> %t, i32 0, i32 0)
  ret void
}
declare <4 x float> @llvm.r600.tex(<4 x float>, i32, i32, i32, i32, i32, i32, i32, i32, i32)
declare void @llvm.r600.store.swizzle(<4 x float>, i32, i32)
