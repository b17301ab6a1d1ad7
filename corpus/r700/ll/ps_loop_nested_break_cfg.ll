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
  br label %outer
outer:
  %i = phi i32 [0, %entry], [%i1, %olatch]
  %s = phi float [0.0, %entry], [%s3, %olatch]
  br label %inner
inner:
  %j = phi i32 [0, %outer], [%j1, %ilatch]
  %s1 = phi float [%s, %outer], [%s2, %ilatch]
  %ij = add i32 %i, %j
  %brk = icmp sgt i32 %ij, 5
  br i1 %brk, label %olatch, label %ilatch
ilatch:
  %fj = sitofp i32 %ij to float
  %s2 = fadd float %s1, %fj
  %j1 = add i32 %j, 1
  %c = icmp slt i32 %j1, 4
  br i1 %c, label %inner, label %olatch
olatch:
  %s3 = phi float [%s1, %inner], [%s2, %ilatch]
  %i1 = add i32 %i, 1
  %co = icmp slt i32 %i1, %n
  br i1 %co, label %outer, label %exit
exit:
  %out_v0 = insertelement <4 x float> undef, float %s3, i32 0
  %out_v1 = insertelement <4 x float> %out_v0, float %x0, i32 1
  %out_v2 = insertelement <4 x float> %out_v1, float %y0, i32 2
  %out = insertelement <4 x float> %out_v2, float %z0, i32 3
  call void @llvm.r600.store.swizzle(<4 x float> %out, i32 0, i32 0)
  ret void
}
declare void @llvm.r600.store.swizzle(<4 x float>, i32, i32)
