// Generates data/models/{resnet50,vgg16,alexnet}.json: per-layer trainable
// parameter counts and forward multiply-accumulates (MACs) per sample, from
// the published architectures (He et al. 2016 "Deep Residual Learning",
// ResNet-50 as in torchvision v1.5: stride on the 3x3 conv; Simonyan and
// Zisserman 2015, VGG-16 configuration D; Krizhevsky et al. 2012, AlexNet with
// its two-GPU grouped conv2/4/5). Inputs 224x224x3 (AlexNet 227x227x3).
// Batch-norm layers carry gamma and beta (their running statistics are not
// gradients) and their MACs are not counted.
//
// Compute time per layer (forward + backward) is not in the papers (OSCAR §6.4
// takes its traces from ASTRA-sim; CCC §6.4 gives none). The files carry it
// under a stated assumption: backward = 2 x forward, so 3 x 2 x MACs FLOPs per
// sample, a per-host batch of 32 and an effective device rate of 50 TFLOP/s
// (a V100-class accelerator's 125 TFLOP/s fp16 peak at 40 % utilisation).
// The workload scales it with `computeScale` (docs/guide.md).
//
//   node scripts/gen-models.mjs    (writes data/models/*.json)
import { writeFileSync } from 'node:fs';

const BATCH = 32;
const FLOPS = 50e12;

function conv(name, cin, cout, k, outHw, { groups = 1, bias = true } = {}) {
  const w = (k * k * cin * cout) / groups;
  return { name, params: w + (bias ? cout : 0), macs: w * outHw * outHw };
}
function bn(name, c) {
  return { name, params: 2 * c, macs: 0 };
}
function fc(name, i, o) {
  return { name, params: i * o + o, macs: i * o };
}

function resnet50() {
  const L = [conv('conv1', 3, 64, 7, 112, { bias: false }), bn('bn1', 64)];
  let cin = 64;
  let hw = 56;
  const stages = [
    [64, 3, 1],
    [128, 4, 2],
    [256, 6, 2],
    [512, 3, 2],
  ];
  stages.forEach(([width, blocks, stride], s) => {
    const out = width * 4;
    for (let b = 0; b < blocks; b++) {
      const st = b === 0 ? stride : 1;
      const ohw = hw / st;
      const p = `layer${s + 1}.${b}`;
      L.push(conv(`${p}.conv1`, cin, width, 1, hw, { bias: false }), bn(`${p}.bn1`, width));
      L.push(conv(`${p}.conv2`, width, width, 3, ohw, { bias: false }), bn(`${p}.bn2`, width));
      L.push(conv(`${p}.conv3`, width, out, 1, ohw, { bias: false }), bn(`${p}.bn3`, out));
      if (b === 0) L.push(conv(`${p}.downsample`, cin, out, 1, ohw, { bias: false }), bn(`${p}.downsample.bn`, out));
      cin = out;
      hw = ohw;
    }
  });
  L.push(fc('fc', 2048, 1000));
  return L;
}

function vgg16() {
  const cfg = [
    [64, 2, 224],
    [128, 2, 112],
    [256, 3, 56],
    [512, 3, 28],
    [512, 3, 14],
  ];
  const L = [];
  let cin = 3;
  cfg.forEach(([c, n, hw], b) => {
    for (let i = 0; i < n; i++) {
      L.push(conv(`conv${b + 1}_${i + 1}`, cin, c, 3, hw));
      cin = c;
    }
  });
  L.push(fc('fc6', 7 * 7 * 512, 4096), fc('fc7', 4096, 4096), fc('fc8', 4096, 1000));
  return L;
}

function alexnet() {
  return [
    conv('conv1', 3, 96, 11, 55),
    conv('conv2', 96, 256, 5, 27, { groups: 2 }),
    conv('conv3', 256, 384, 3, 13),
    conv('conv4', 384, 384, 3, 13, { groups: 2 }),
    conv('conv5', 384, 256, 3, 13, { groups: 2 }),
    fc('fc6', 6 * 6 * 256, 4096),
    fc('fc7', 4096, 4096),
    fc('fc8', 4096, 1000),
  ];
}

const SOURCES = {
  resnet50: 'He, Zhang, Ren, Sun, "Deep Residual Learning for Image Recognition", CVPR 2016, Table 1 (50-layer); stride on the 3x3 conv (torchvision v1.5); 224x224 input',
  vgg16: 'Simonyan, Zisserman, "Very Deep Convolutional Networks for Large-Scale Image Recognition", ICLR 2015, Table 1 configuration D; 224x224 input',
  alexnet: 'Krizhevsky, Sutskever, Hinton, "ImageNet Classification with Deep Convolutional Neural Networks", NIPS 2012, Sec. 3.5 / Fig. 2 (conv2, conv4, conv5 split over two GPUs); 227x227 input',
};

for (const [name, layers] of Object.entries({ resnet50: resnet50(), vgg16: vgg16(), alexnet: alexnet() })) {
  const rows = layers.map((l) => ({
    name: l.name,
    params: l.params,
    gradientBytes: 4 * l.params,
    forwardMacs: l.macs,
    computeUs: Math.round(((3 * 2 * l.macs * BATCH) / FLOPS) * 1e6 * 1000) / 1000,
  }));
  const total = rows.reduce((a, r) => a + r.params, 0);
  const doc = {
    model: name,
    source: SOURCES[name],
    gradients: 'one fp32 gradient (4 bytes) per trainable parameter; batch-norm layers: gamma and beta',
    compute:
      'computeUs = forward + backward of the layer for one iteration, assumed: backward = 2 x forward, 3 x 2 x forwardMacs FLOPs per sample, batch 32 per host, 50 TFLOP/s effective (125 TFLOP/s fp16 peak at 40 %); the papers give no compute times',
    batch: BATCH,
    effectiveFlops: FLOPS,
    totalParams: total,
    layers: rows,
  };
  writeFileSync(new URL(`../data/models/${name}.json`, import.meta.url), JSON.stringify(doc, null, 1) + '\n');
  console.log(name, rows.length, 'layers', total, 'params', rows.reduce((a, r) => a + r.computeUs, 0).toFixed(1), 'us');
}
