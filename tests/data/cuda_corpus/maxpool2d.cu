// 2x2 max pooling with stride 2 over NCHW tensors; one thread per output element.
#include <cstdint>
#include <cfloat>
#include <cuda_runtime.h>

__global__ void maxpool2x2(const float* __restrict__ in, float* __restrict__ out, int64_t planes, int64_t h,
                           int64_t w) {
  const int64_t oh = h / 2;
  const int64_t ow = w / 2;
  const int64_t total = planes * oh * ow;
  const int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= total) {
    return;
  }
  const int64_t ox = i % ow;
  const int64_t oy = (i / ow) % oh;
  const int64_t p = i / (ow * oh);
  const float* __restrict__ src = in + p * h * w + (2 * oy) * w + 2 * ox;
  float m = -FLT_MAX;
  m = fmaxf(m, src[0]);
  m = fmaxf(m, src[1]);
  m = fmaxf(m, src[w]);
  m = fmaxf(m, src[w + 1]);
  out[i] = m;
}

cudaError_t launch_maxpool(const float* in, float* out, int64_t planes, int64_t h, int64_t w, cudaStream_t stream) {
  const int64_t total = planes * (h / 2) * (w / 2);
  maxpool2x2<<<(unsigned)((total + 127) / 128), 128, 0, stream>>>(in, out, planes, h, w);
  return cudaGetLastError();
}
