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
  %n = fptosi float %x0 to i32
  %m = fptosi float %y0 to i32
  br label %outer
outer:
  %i = phi i32 [0, %entry], [%i1, %olatch]
  %acc = phi i32 [0, %entry], [%acc3, %olatch]
  br label %inner
inner:
  %j = phi i32 [0, %outer], [%j1, %inner]
  %a2 = phi i32 [%acc, %outer], [%a3, %inner]
  %p = mul i32 %i, %j
  %a3 = add i32 %a2, %p
  %j1 = add i32 %j, 1
  %c = icmp slt i32 %j1, %m
  br i1 %c, label %inner, label %olatch
olatch:
  %acc3 = add i32 %a3, 1
  %i1 = add i32 %i, 1
  %co = icmp slt i32 %i1, %n
  br i1 %co, label %outer, label %exit
exit:
  %out_b0 = bitcast i32 %acc3 to float
  %out_b1 = bitcast i32 %i1 to float
  %out_b2 = bitcast i32 %n to float
  %out_b3 = bitcast i32 %m to float
  %out_v0 = insertelement <4 x float> undef, float %out_b0, i32 0
  %out_v1 = insertelement <4 x float> %out_v0, float %out_b1, i32 1
  %out_v2 = insertelement <4 x float> %out_v1, float %out_b2, i32 2
  %out = insertelement <4 x float> %out_v2, float %out_b3, i32 3
  call void @llvm.r600.store.swizzle(<4 x float> %out, i32 0, i32 0)
  ret void
}
declare void @llvm.r600.store.swizzle(<4 x float>, i32, i32)
