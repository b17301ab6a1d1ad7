; llc-flags: -r600-ir-structurize=0 (if/else with texture fetches in both arms: JUMP, ELSE, POP)
define amdgpu_ps void @main(<4 x float> inreg %in0, <4 x float> inreg %in1) {
entry:
  %x = extractelement <4 x float> %in0, i32 0
  %c = fcmp ogt float %x, 0.0
  br i1 %c, label %then, label %else
then:
  %t = call <4 x float> @llvm.r600.tex(<4 x float> %in0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 1, i32 1, i32 1, i32 1)
  br label %join
else:
  %u = call <4 x float> @llvm.r600.tex(<4 x float> %in1, i32 0, i32 0, i32 0, i32 1, i32 1, i32 1, i32 1, i32 1, i32 1)
  %u2 = fmul <4 x float> %u, %in0
  br label %join
join:
  %r = phi <4 x float> [%t, %then], [%u2, %else]
  call void @llvm.r600.store.swizzle(<4 x float> %r, i32 0, i32 0)
  ret void
}
declare <4 x float> @llvm.r600.tex(<4 x float>, i32, i32, i32, i32, i32, i32, i32, i32, i32)
declare void @llvm.r600.store.swizzle(<4 x float>, i32, i32)
