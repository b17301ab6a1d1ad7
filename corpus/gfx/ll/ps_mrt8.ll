; Eight render targets: MRTk = (x + k, y, k, 1); done on MRT7.
define amdgpu_ps void @main(i32 inreg %prim_mask, <2 x float> %persp_sample, <2 x float> %persp_center, <2 x float> %persp_centroid, <3 x float> %pull, <2 x float> %lin_sample, <2 x float> %lin_center, <2 x float> %lin_centroid, float %stipple, float %x, float %y, float %z, float %w) {
  %x0 = fadd float %x, 0.0
  call void @llvm.amdgcn.exp.f32(i32 0, i32 15, float %x0, float %y, float 0.0, float 1.0, i1 false, i1 true)
  %x1 = fadd float %x, 1.0
  call void @llvm.amdgcn.exp.f32(i32 1, i32 15, float %x1, float %y, float 1.0, float 1.0, i1 false, i1 true)
  %x2 = fadd float %x, 2.0
  call void @llvm.amdgcn.exp.f32(i32 2, i32 15, float %x2, float %y, float 2.0, float 1.0, i1 false, i1 true)
  %x3 = fadd float %x, 3.0
  call void @llvm.amdgcn.exp.f32(i32 3, i32 15, float %x3, float %y, float 3.0, float 1.0, i1 false, i1 true)
  %x4 = fadd float %x, 4.0
  call void @llvm.amdgcn.exp.f32(i32 4, i32 15, float %x4, float %y, float 4.0, float 1.0, i1 false, i1 true)
  %x5 = fadd float %x, 5.0
  call void @llvm.amdgcn.exp.f32(i32 5, i32 15, float %x5, float %y, float 5.0, float 1.0, i1 false, i1 true)
  %x6 = fadd float %x, 6.0
  call void @llvm.amdgcn.exp.f32(i32 6, i32 15, float %x6, float %y, float 6.0, float 1.0, i1 false, i1 true)
  %x7 = fadd float %x, 7.0
  call void @llvm.amdgcn.exp.f32(i32 7, i32 15, float %x7, float %y, float 7.0, float 1.0, i1 true, i1 true)
  ret void
}
declare void @llvm.amdgcn.exp.f32(i32, i32, float, float, float, float, i1, i1)
