define amdgpu_vs void @main(<4 x float> inreg %in0) {
  call void @llvm.r600.store.stream.output(<4 x float> %in0, i32 0, i32 0, i32 15)
  call void @llvm.r600.store.swizzle(<4 x float> %in0, i32 60, i32 1)
  ret void
}
declare void @llvm.r600.store.stream.output(<4 x float>, i32, i32, i32)
declare void @llvm.r600.store.swizzle(<4 x float>, i32, i32)
