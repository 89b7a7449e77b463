import { describe, expect, it } from 'vitest';
import { toFormData } from './formData';

describe('toFormData', () => {
  it('names nested rows, repeats scalar lists, stringifies scalars and skips empty values', () => {
    const file = new File(['x'], 'logo.png', { type: 'image/png' });
    const form = toFormData({
      name: 'Gold',
      isPromoCodeUsing: true,
      promoCodeVersion: null,
      file,
      assets: [3, 5],
      Cities: [
        { Id: 0, CityId: 1, Address: 'Nizami 1', Latitude: 40.4, Longitude: 49.8 },
        { Id: 7, CityId: 2, Address: 'Baku', Latitude: 40.3, Longitude: 49.9 },
      ],
      deletedCities: [4, 9],
    }, { indexedLists: ['deletedCities'] });
    expect([...form.keys()]).toEqual([
      'name',
      'isPromoCodeUsing',
      'file',
      'assets',
      'assets',
      'Cities[0].Id',
      'Cities[0].CityId',
      'Cities[0].Address',
      'Cities[0].Latitude',
      'Cities[0].Longitude',
      'Cities[1].Id',
      'Cities[1].CityId',
      'Cities[1].Address',
      'Cities[1].Latitude',
      'Cities[1].Longitude',
      'deletedCities[0]',
      'deletedCities[1]',
    ]);
    expect(form.get('isPromoCodeUsing')).toBe('true');
    expect(form.getAll('assets')).toEqual(['3', '5']);
    expect(form.get('Cities[1].Address')).toBe('Baku');
    expect((form.get('file') as File).name).toBe('logo.png');
  });
});
