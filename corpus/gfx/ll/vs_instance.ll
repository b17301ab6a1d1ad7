; A vertex shader with vertex index (v0) and instance index (v1): POS0 = (vid, iid, uniform s0, 1).
define amdgpu_vs void @main(float inreg %z, i32 %vid, i32 %iid) {
  %x = uitofp i32 %vid to float
  %y = uitofp i32 %iid to float
  call void @llvm.amdgcn.exp.f32(i32 12, i32 15, float %x, float %y, float %z, float 1.0, i1 true, i1 false)
  ret void
}
declare void @llvm.amdgcn.exp.f32(i32, i32, float, float, float, float, i1, i1)
