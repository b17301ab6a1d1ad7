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
  %n = fptosi float %x0 to i32
  %m = fptosi float %y0 to i32
  br label %loop
loop:
  %i = phi i32 [0, %entry], [%i1, %latch]
  %acc = phi float [0.0, %entry], [%acc2, %latch]
  %odd = and i32 %i, 1
  %isodd = icmp ne i32 %odd, 0
  br i1 %isodd, label %latch_skip, label %body
body:
  %fi = sitofp i32 %i to float
  %acc1 = fadd float %acc, %fi
  %big = fcmp ogt float %acc1, 20.0
  br i1 %big, label %exit, label %latch
latch_skip:
  br label %latch
latch:
  %acc2 = phi float [%acc1, %body], [%acc, %latch_skip]
  %i1 = add i32 %i, 1
  %more = icmp slt i32 %i1, %n
  br i1 %more, label %loop, label %exit
exit:
  %r = phi float [%acc1, %body], [%acc2, %latch]
  %out_v0 = insertelement <4 x float> undef, float %r, i32 0
  %out_v1 = insertelement <4 x float> %out_v0, float %x0, i32 1
  %out_v2 = insertelement <4 x float> %out_v1, float %y0, i32 2
  %out = insertelement <4 x float> %out_v2, float %z0, i32 3
  call void @llvm.r600.store.swizzle(<4 x float> %out, i32 0, i32 0)
  ret void
}
declare void @llvm.r600.store.swizzle(<4 x float>, i32, i32)
