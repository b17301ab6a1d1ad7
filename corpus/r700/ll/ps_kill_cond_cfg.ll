; llc-flags: -r600-ir-structurize=0 (AMDIL CFG structurizer: ELSE, predicated ALU, breaks inside nested ifs)
define amdgpu_ps void @main(<4 x float> inreg %in0, <4 x float> inreg %in1) {
entry:
  %x0 = extractelement <4 x float> %in0, i32 0
  %y0 = extractelement <4 x float> %in0, i32 1
  %z0 = extractelement <4 x float> %in0, i32 2
  %w0 = extractelement <4 x float> %in0, i32 3
  %x1 = extractelement <4 x float> %in1, i32 0
  %y1 = extractelement <4 x float> %in1, i32 1
  %z1 = extractelement <4 x float> %in1, i32 2
  %w1 = extractelement <4 x float> %in1, i32 3
  %c = fcmp ogt float %x0, 0.0
  br i1 %c, label %k, label %j
k:
  %t = fsub float %y0, 0.5
  call void @llvm.r600.kill(float %t)
  br label %j
j:
  %out = fmul <4 x float> %in0, %in1
  call void @llvm.r600.store.swizzle(<4 x float> %out, i32 0, i32 0)
  ret void
}
declare void @llvm.r600.store.swizzle(<4 x float>, i32, i32)
declare void @llvm.r600.kill(float)
