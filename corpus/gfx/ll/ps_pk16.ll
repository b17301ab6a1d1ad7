; A 16-bit export: v_cvt_pk_rtz_f16_f32 packs (R, G) and (B, A) into two VGPRs, EN = 0x3.
define amdgpu_ps void @main(i32 inreg %prim_mask, <2 x float> %persp_sample, <2 x float> %persp_center, <2 x float> %persp_centroid, <3 x float> %pull, <2 x float> %lin_sample, <2 x float> %lin_center, <2 x float> %lin_centroid, float %stipple, float %x, float %y) {
  %rg = call <2 x half> @llvm.amdgcn.cvt.pkrtz(float %x, float %y)
  %ba = call <2 x half> @llvm.amdgcn.cvt.pkrtz(float 0x3FD5555560000000, float 1.0)
  %a = bitcast <2 x half> %rg to float
  %b = bitcast <2 x half> %ba to float
  call void @llvm.amdgcn.exp.f32(i32 0, i32 3, float %a, float %b, float undef, float undef, i1 true, i1 true)
  ret void
}
declare <2 x half> @llvm.amdgcn.cvt.pkrtz(float, float)
declare void @llvm.amdgcn.exp.f32(i32, i32, float, float, float, float, i1, i1)
