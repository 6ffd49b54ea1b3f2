// Bilinear 2x upsampling of a single-channel image.
__global__ void __launch_bounds__(256) upsample2x(const float* __restrict__ in, float* __restrict__ out,
                                                  int in_w, int in_h) {
    int ox = blockIdx.x * blockDim.x + threadIdx.x;
    int oy = blockIdx.y * blockDim.y + threadIdx.y;
    int out_w = in_w * 2, out_h = in_h * 2;
    if (ox >= out_w || oy >= out_h) return;
    float sx = fmaxf((ox + 0.5f) * 0.5f - 0.5f, 0.0f);
    float sy = fmaxf((oy + 0.5f) * 0.5f - 0.5f, 0.0f);
    int x0 = (int)sx, y0 = (int)sy;
    int x1 = min(x0 + 1, in_w - 1), y1 = min(y0 + 1, in_h - 1);
    float fx = sx - x0, fy = sy - y0;
    float top = in[y0 * in_w + x0] * (1.0f - fx) + in[y0 * in_w + x1] * fx;
    float bottom = in[y1 * in_w + x0] * (1.0f - fx) + in[y1 * in_w + x1] * fx;
    out[oy * out_w + ox] = top * (1.0f - fy) + bottom * fy;
}

void upsample2x_launch(const float* in, float* out, int in_w, int in_h) {
    dim3 block(16, 16);
    dim3 grid((2 * in_w + 15) / 16, (2 * in_h + 15) / 16);
    upsample2x<<<grid, block>>>(in, out, in_w, in_h);
}
